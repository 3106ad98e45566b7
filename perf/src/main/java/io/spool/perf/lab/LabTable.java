package io.spool.perf.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a lab measured: one row per measurement, Spool's figure beside the reference system's, rendered as a
 * Markdown table so it reads the same in a terminal and in docs/guide/labs.md.
 * Not thread-safe.
 */
public final class LabTable
{
    private static final String[] HEADINGS = {"measurement", "Spool", "reference"};

    private final String title;
    private final String setup;
    private final Map<String, String[]> rows = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    /**
     * @param title what is compared.
     * @param setup the scenario in one line: message counts, timings, settings.
     */
    public LabTable(final String title, final String setup)
    {
        this.title = title;
        this.setup = setup;
    }

    /** Adds a row; {@code figure} is what Spool showed, {@code reference} names the system it comes from. */
    public LabTable row(final String measurement, final Object figure, final String reference)
    {
        if (rows.putIfAbsent(measurement, new String[] {measurement, String.valueOf(figure), reference}) != null)
        {
            throw new IllegalArgumentException("measurement already in the table: " + measurement);
        }
        return this;
    }

    /** A line printed under the table: what the figures mean, or what the lab leaves out and why. */
    public LabTable note(final String note)
    {
        notes.add(note);
        return this;
    }

    /**
     * @return Spool's figure for a measurement, as printed.
     * @throws IllegalArgumentException when the table has no such row.
     */
    public String figure(final String measurement)
    {
        final String[] row = rows.get(measurement);
        if (row == null)
        {
            throw new IllegalArgumentException("no measurement '" + measurement + "' in " + rows.keySet());
        }
        return row[1];
    }

    public String render()
    {
        final int[] widths = new int[HEADINGS.length];
        for (int i = 0; i < HEADINGS.length; i++)
        {
            widths[i] = HEADINGS[i].length();
        }
        for (final String[] row : rows.values())
        {
            for (int i = 0; i < row.length; i++)
            {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        final StringBuilder out = new StringBuilder();
        out.append(title).append('\n').append(setup).append("\n\n");
        line(out, HEADINGS, widths);
        final String[] rules = new String[HEADINGS.length];
        for (int i = 0; i < rules.length; i++)
        {
            rules[i] = "-".repeat(widths[i]);
        }
        line(out, rules, widths);
        for (final String[] row : rows.values())
        {
            line(out, row, widths);
        }
        if (!notes.isEmpty())
        {
            out.append('\n');
            for (final String note : notes)
            {
                out.append(note).append('\n');
            }
        }
        return out.toString();
    }

    private static void line(final StringBuilder out, final String[] cells, final int[] widths)
    {
        out.append('|');
        for (int i = 0; i < cells.length; i++)
        {
            out.append(' ').append(cells[i]).append(" ".repeat(widths[i] - cells[i].length())).append(" |");
        }
        out.append('\n');
    }

    @Override
    public String toString()
    {
        return render();
    }
}
