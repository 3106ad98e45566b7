package io.spool.queue;

import io.spool.api.SpoolException;
import io.spool.api.queue.Receipt;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a batch settlement: which receipts took effect and why the others did not. Immutable,
 * thread-safe.
 */
public final class BatchResult
{
    private final List<Receipt> succeeded;
    private final Map<Receipt, SpoolException> failed;

    BatchResult(final List<Receipt> receipts, final List<SpoolException> errors)
    {
        final java.util.ArrayList<Receipt> ok = new java.util.ArrayList<>();
        final Map<Receipt, SpoolException> bad = new LinkedHashMap<>();
        for (int i = 0; i < receipts.size(); i++)
        {
            if (errors.get(i) == null)
            {
                ok.add(receipts.get(i));
            }
            else
            {
                bad.put(receipts.get(i), errors.get(i));
            }
        }
        this.succeeded = Collections.unmodifiableList(ok);
        this.failed = Collections.unmodifiableMap(bad);
    }

    public List<Receipt> succeeded()
    {
        return succeeded;
    }

    public Map<Receipt, SpoolException> failed()
    {
        return failed;
    }

    public boolean allSucceeded()
    {
        return failed.isEmpty();
    }
}
