package io.spool.api.queue;

import io.spool.api.SpoolException;

import java.util.ArrayList;
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

    private BatchResult(final List<Receipt> succeeded, final Map<Receipt, SpoolException> failed)
    {
        this.succeeded = Collections.unmodifiableList(succeeded);
        this.failed = Collections.unmodifiableMap(failed);
    }

    /**
     * The outcome of settling {@code receipts}, where {@code errors.get(i)} is why receipt {@code i} was refused, or
     * null when it took effect.
     */
    public static BatchResult of(final List<Receipt> receipts, final List<? extends SpoolException> errors)
    {
        final List<Receipt> ok = new ArrayList<>();
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
        return new BatchResult(ok, bad);
    }

    /** The outcome of settling {@code receipts}, of which those in {@code refused} did not take effect. */
    public static BatchResult of(final List<Receipt> receipts, final Map<Receipt, SpoolException> refused)
    {
        final List<Receipt> ok = new ArrayList<>();
        final Map<Receipt, SpoolException> bad = new LinkedHashMap<>();
        for (final Receipt receipt : receipts)
        {
            final SpoolException error = refused.get(receipt);
            if (error == null)
            {
                ok.add(receipt);
            }
            else
            {
                bad.put(receipt, error);
            }
        }
        return new BatchResult(ok, bad);
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
