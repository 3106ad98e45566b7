package io.spool.perf.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a lab measured: one row per measurement, Spool's figure beside the reference system's, rendered as a Markdown
 * table so it reads the same in a terminal and in docs/guide/labs.md. Each reference says where it comes from:
 * measured ({@link #measured}: the same experiment run on the real broker), a broker's documentation, or an earlier
 * lab run. A Spool figure that follows from the lab's own setup rather than from the engine (a count that is the
 * lab's window divided by its simulated round trip, a time set by its virtual clock) is marked, and a note says what
 * sets it.
 * Not thread-safe.
 */
public final class LabTable
{
    /** The broker version the measured RabbitMQ figures come from. */
    public static final String RABBITMQ = "RabbitMQ 3.10.8";
    /** The SQS emulator the measured SQS figures come from. */
    public static final String ELASTICMQ = "ElasticMQ 1.7.1";
    private static final String MEASURED = ", measured: ";
    private static final String SET_BY_LAB = " *";
    private static final String[] HEADINGS = {"measurement", "Spool", "reference"};

    private final String title;
    private final String setup;
    private final Map<String, String[]> rows = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    /** For each row whose Spool figure the lab's setup decides, what decides it. */
    private final Map<String, String> setByLab = new LinkedHashMap<>();

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

    /** A reference figure measured on {@code system} ({@link #RABBITMQ} or {@link #ELASTICMQ}). */
    public static String measured(final String system, final String figure)
    {
        return system + MEASURED + figure;
    }

    /**
     * Adds a row whose Spool figure follows from the lab's setup, not from the engine; {@code setBy} says how, for
     * the note under the table.
     */
    public LabTable setByLab(final String measurement, final Object figure, final String reference, final String setBy)
    {
        row(measurement, figure, reference);
        setByLab.put(measurement, setBy);
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

    /**
     * @return the reference figure for a measurement, with where it comes from.
     * @throws IllegalArgumentException when the table has no such row.
     */
    public String reference(final String measurement)
    {
        figure(measurement);
        return rows.get(measurement)[2];
    }

    /** Whether a measurement's Spool figure follows from the lab's setup rather than from the engine. */
    public boolean isSetByLab(final String measurement)
    {
        figure(measurement);
        return setByLab.containsKey(measurement);
    }

    public String render()
    {
        final int[] widths = new int[HEADINGS.length];
        for (int i = 0; i < HEADINGS.length; i++)
        {
            widths[i] = HEADINGS[i].length();
        }
        final List<String[]> cells = new ArrayList<>();
        for (final String[] row : rows.values())
        {
            cells.add(setByLab.containsKey(row[0]) ? new String[] {row[0], row[1] + SET_BY_LAB, row[2]} : row);
        }
        for (final String[] row : cells)
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
        for (final String[] row : cells)
        {
            line(out, row, widths);
        }
        final List<String> under = new ArrayList<>(notes);
        setByLab.forEach((measurement, setBy) ->
            under.add(SET_BY_LAB.trim() + " Set by the lab, not the engine: " + measurement + ": " + setBy + "."));
        if (rows.values().stream().anyMatch(row -> row[2].contains(MEASURED)))
        {
            under.add("Measured references: the same experiment run on " + RABBITMQ + " and on " + ELASTICMQ +
                " (an SQS emulator),");
            under.add("on a 2-core machine over loopback; \"docs\" references are what the broker's documentation states.");
        }
        if (!under.isEmpty())
        {
            out.append('\n');
            for (final String note : under)
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
