package io.spool.perf.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's charts as inline SVG: a page that needs no script, no font and no file beside it. Each chart carries
 * its figures as text (axis labels, values at the bars, tooltips on points), so the numbers can be read off as well
 * as seen. Stateless.
 */
final class SvgCharts
{
    static final String SPOOL_COLOUR = "#2563eb";
    static final String BASELINE_COLOUR = "#9ca3af";
    private static final String[] SERIES_COLOURS = {SPOOL_COLOUR, "#ea580c", "#16a34a", "#9333ea"};

    private static final int WIDTH = 760;
    private static final int HEIGHT = 300;
    private static final int LEFT = 78;
    private static final int RIGHT = 24;
    private static final int TOP = 24;
    private static final int BOTTOM = 46;
    /** Past this many points a series is averaged down: a pixel cannot show more. */
    private static final int MAX_POINTS = 380;
    /** Up to this many points each gets a dot with a tooltip. */
    private static final int MAX_DOTS = 80;

    /** One bar: a label, a value and how the value is written beside it. */
    record Bar(String label, double value, String valueText, String colour)
    {
    }

    private SvgCharts()
    {
    }

    /**
     * Horizontal bars on one scale from zero, a label on the left and the value at the end of each bar.
     *
     * @param groupSize  bars per group; groups are set apart by a gap.
     * @param labelWidth room for the labels on the left; the value text takes 170 on the right.
     */
    static String bars(final String ariaLabel, final List<Bar> bars, final int groupSize, final int labelWidth)
    {
        final int rowHeight = 26;
        final int groupGap = groupSize > 1 ? 14 : 0;
        final int groups = (bars.size() + groupSize - 1) / groupSize;
        final int height = TOP / 2 + bars.size() * rowHeight + groups * groupGap;
        final int valueWidth = 170;
        final double max = bars.stream().mapToDouble(Bar::value).max().orElse(1);
        final StringBuilder svg = open(ariaLabel, WIDTH, height);
        int y = TOP / 2;
        for (int i = 0; i < bars.size(); i++)
        {
            if (i > 0 && i % groupSize == 0)
            {
                y += groupGap;
            }
            final Bar bar = bars.get(i);
            final double length = max <= 0 ? 0 : (WIDTH - labelWidth - valueWidth) * bar.value() / max;
            svg.append(text(labelWidth - 8, y + 17, "end", "label", bar.label()));
            svg.append(String.format(Locale.ROOT,
                "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"3\" fill=\"%s\">" +
                    "<title>%s: %s</title></rect>%n",
                labelWidth, y + 3, Math.max(1.0, length), rowHeight - 6, bar.colour(), escape(bar.label()),
                escape(bar.valueText())));
            svg.append(text(labelWidth + Math.max(1.0, length) + 6, y + 17, "start", "value", bar.valueText()));
            y += rowHeight;
        }
        return svg.append("</svg>\n").toString();
    }

    /**
     * Records per second over time, one line per series, with a dashed line at each reference rate that fits the
     * scale; a reference far above the lines is written at the top instead of flattening them.
     */
    static String throughput(final String ariaLabel, final List<ThroughputSeries> series, final List<Bar> references)
    {
        double maxSeconds = 0;
        double maxRate = 0;
        for (final ThroughputSeries line : series)
        {
            for (final double second : line.seconds())
            {
                maxSeconds = Math.max(maxSeconds, second);
            }
            for (final double rate : line.recordsPerSec())
            {
                maxRate = Math.max(maxRate, rate);
            }
        }
        final List<Bar> onScale = new ArrayList<>();
        final List<Bar> offScale = new ArrayList<>();
        for (final Bar reference : references)
        {
            (maxRate == 0 || reference.value() <= maxRate * 3 ? onScale : offScale).add(reference);
            if (reference.value() <= maxRate * 3)
            {
                maxRate = Math.max(maxRate, reference.value());
            }
        }
        final double yMax = niceCeiling(maxRate * 1.08);
        final double xMax = niceCeiling(Math.max(maxSeconds, 1e-3));
        final StringBuilder svg = open(ariaLabel, WIDTH, HEIGHT);
        axes(svg, xMax, yMax, "seconds into the measured run", "records/s");

        int colour = 0;
        for (final ThroughputSeries line : series)
        {
            final String stroke = SERIES_COLOURS[colour++ % SERIES_COLOURS.length];
            final double[][] points = averagedDown(line.seconds(), line.recordsPerSec());
            final StringBuilder path = new StringBuilder();
            for (int i = 0; i < points[0].length; i++)
            {
                path.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(points[0][i], xMax), y(points[1][i], yMax)));
            }
            svg.append(String.format(Locale.ROOT,
                "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\">" +
                    "<title>%s</title></polyline>%n", stroke, path.toString().trim(), escape(line.name())));
            if (points[0].length <= MAX_DOTS)
            {
                for (int i = 0; i < points[0].length; i++)
                {
                    svg.append(String.format(Locale.ROOT,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s at %.3f s: %s records/s" +
                            "</title></circle>%n", x(points[0][i], xMax), y(points[1][i], yMax), stroke,
                        escape(line.name()), points[0][i], rate(points[1][i])));
                }
            }
        }
        for (final Bar reference : onScale)
        {
            final double y = y(reference.value(), yMax);
            svg.append(String.format(Locale.ROOT,
                "<line class=\"reference\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" " +
                    "stroke-dasharray=\"6 4\" stroke-width=\"1.5\"/>%n",
                LEFT, WIDTH - RIGHT, y, y, reference.colour()));
            svg.append(text(WIDTH - RIGHT - 4, y - 5, "end", "note", reference.label() + " " + reference.valueText()));
        }
        int noteY = TOP + 26;
        for (final Bar reference : offScale)
        {
            svg.append(text(WIDTH - RIGHT - 4, noteY, "end", "note",
                "\u2191 " + reference.label() + " " + reference.valueText() + " (above the scale)"));
            noteY += 15;
        }
        legend(svg, series);
        return svg.append("</svg>\n").toString();
    }

    /**
     * Latency against percentile, both on log scales: the x axis spreads the nines (90%, 99%, 99.9% ...) evenly, as
     * HdrHistogram's own plots do, and the marked percentiles are labelled with their values.
     */
    static String latency(final String ariaLabel, final LatencyDistribution distribution,
        final LatencySummary summary, final long samples)
    {
        final List<LatencyDistribution.Point> points = distribution.points();
        final StringBuilder svg = open(ariaLabel, WIDTH, HEIGHT);
        if (points.isEmpty())
        {
            svg.append(text(WIDTH / 2.0, HEIGHT / 2.0, "middle", "note", "no latency was recorded"));
            return svg.append("</svg>\n").toString();
        }
        final double nines = Math.max(1, Math.ceil(Math.log10(Math.max(10, samples))));
        double minMicros = Double.MAX_VALUE;
        double maxMicros = 0;
        for (final LatencyDistribution.Point point : points)
        {
            minMicros = Math.min(minMicros, Math.max(0.01, point.micros()));
            maxMicros = Math.max(maxMicros, point.micros());
        }
        final double lowDecade = Math.floor(Math.log10(minMicros));
        final double highDecade = Math.max(lowDecade + 1, Math.ceil(Math.log10(Math.max(maxMicros, 0.01))));

        // axes: x in nines, y in decades of microseconds
        final int bottom = HEIGHT - BOTTOM;
        svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>%n",
            LEFT, WIDTH - RIGHT, bottom, bottom));
        svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>%n",
            LEFT, LEFT, TOP, bottom));
        for (int nine = 0; nine <= nines; nine++)
        {
            final double x = LEFT + (WIDTH - LEFT - RIGHT) * nine / nines;
            svg.append(gridLine(x, x, TOP, bottom));
            svg.append(text(x, bottom + 16, nine == nines ? "end" : "middle", "tick", percentileLabel(nine)));
        }
        svg.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 8, "middle", "axis-label", "percentile"));
        for (double decade = lowDecade; decade <= highDecade; decade++)
        {
            final double y = logY(Math.pow(10, decade), lowDecade, highDecade);
            svg.append(gridLine(LEFT, WIDTH - RIGHT, y, y));
            svg.append(text(LEFT - 6, y + 4, "end", "tick", micros(Math.pow(10, decade))));
        }

        final StringBuilder path = new StringBuilder();
        for (final LatencyDistribution.Point point : points)
        {
            path.append(String.format(Locale.ROOT, "%.1f,%.1f ", ninesX(point.percentile(), nines, samples),
                logY(point.micros(), lowDecade, highDecade)));
        }
        svg.append(String.format(Locale.ROOT, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" " +
            "stroke-width=\"2\" points=\"%s\"/>%n", SPOOL_COLOUR, path.toString().trim()));
        for (final LatencyDistribution.Point point : points)
        {
            svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\" fill=\"%s\">" +
                    "<title>p%s: %s</title></circle>%n", ninesX(point.percentile(), nines, samples),
                logY(point.micros(), lowDecade, highDecade), SPOOL_COLOUR, percentile(point.percentile()),
                micros(point.micros())));
        }
        final double[][] marks = {{50, summary.p50Micros()}, {99, summary.p99Micros()},
            {99.9, summary.p999Micros()}, {100, summary.maxMicros()}};
        for (final double[] mark : marks)
        {
            final double x = ninesX(mark[0], nines, samples);
            final double y = logY(mark[1], lowDecade, highDecade);
            svg.append(String.format(Locale.ROOT, "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" " +
                "fill=\"white\" stroke=\"%s\" stroke-width=\"2\"/>%n", x, y, SPOOL_COLOUR));
            final boolean maximum = mark[0] == 100;
            final String label = (maximum ? "max" : "p" + percentile(mark[0])) + " " + micros(mark[1]);
            final boolean nearRight = x > WIDTH - RIGHT - 120;
            // the maximum is often close to p99.9: its label goes below the curve, the others above
            svg.append(text(nearRight ? x - 9 : x + 9, maximum ? y + 20 : y - 8, nearRight ? "end" : "start",
                "mark-label", label));
        }
        return svg.append("</svg>\n").toString();
    }

    private static StringBuilder open(final String ariaLabel, final int width, final int height)
    {
        return new StringBuilder(8192).append(String.format(Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" " +
                "role=\"img\" aria-label=\"%s\">%n", width, height, width, height, escape(ariaLabel)));
    }

    private static void axes(final StringBuilder svg, final double xMax, final double yMax, final String xLabel,
        final String yLabel)
    {
        final int bottom = HEIGHT - BOTTOM;
        final int ticks = 5;
        for (int i = 0; i <= ticks; i++)
        {
            final double value = yMax * i / ticks;
            final double y = y(value, yMax);
            svg.append(gridLine(LEFT, WIDTH - RIGHT, y, y));
            svg.append(text(LEFT - 6, y + 4, "end", "tick", rate(value)));
            final double seconds = xMax * i / ticks;
            final double x = x(seconds, xMax);
            svg.append(text(x, bottom + 16, "middle", "tick", String.format(Locale.ROOT, "%.3g", seconds)));
        }
        svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>%n",
            LEFT, WIDTH - RIGHT, bottom, bottom));
        svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>%n",
            LEFT, LEFT, TOP, bottom));
        svg.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 8, "middle", "axis-label", xLabel));
        svg.append(String.format(Locale.ROOT, "<text class=\"axis-label\" transform=\"translate(14 %d) rotate(-90)\" " +
            "text-anchor=\"middle\">%s</text>%n", (TOP + bottom) / 2, escape(yLabel)));
    }

    private static void legend(final StringBuilder svg, final List<ThroughputSeries> series)
    {
        double x = LEFT + 10;
        int colour = 0;
        for (final ThroughputSeries line : series)
        {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>%n",
                x, TOP + 2, SERIES_COLOURS[colour++ % SERIES_COLOURS.length]));
            svg.append(text(x + 19, TOP + 8, "start", "legend", line.name()));
            x += 30 + line.name().length() * 6.4;
        }
    }

    /** Consecutive points averaged in groups, so that at most {@link #MAX_POINTS} remain. */
    private static double[][] averagedDown(final double[] seconds, final double[] rates)
    {
        final int group = Math.max(1, (seconds.length + MAX_POINTS - 1) / MAX_POINTS);
        final int points = (seconds.length + group - 1) / group;
        final double[][] averaged = new double[2][points];
        for (int p = 0; p < points; p++)
        {
            final int from = p * group;
            final int to = Math.min(seconds.length, from + group);
            double sum = 0;
            for (int i = from; i < to; i++)
            {
                sum += rates[i];
            }
            averaged[0][p] = seconds[to - 1];
            averaged[1][p] = sum / (to - from);
        }
        return averaged;
    }

    private static double x(final double seconds, final double xMax)
    {
        return LEFT + (WIDTH - LEFT - RIGHT) * seconds / xMax;
    }

    private static double y(final double value, final double yMax)
    {
        return HEIGHT - BOTTOM - (HEIGHT - BOTTOM - TOP) * value / yMax;
    }

    /** The x of a percentile when each nine takes the same width; the maximum sits at the last sample's place. */
    private static double ninesX(final double percentile, final double nines, final long samples)
    {
        final double decades = percentile >= 100 ? Math.log10(Math.max(1, samples)) :
            Math.log10(1 / (1 - percentile / 100));
        return LEFT + (WIDTH - LEFT - RIGHT) * Math.min(decades, nines) / nines;
    }

    private static double logY(final double micros, final double lowDecade, final double highDecade)
    {
        final double decade = Math.log10(Math.max(micros, Math.pow(10, lowDecade)));
        return HEIGHT - BOTTOM - (HEIGHT - BOTTOM - TOP) * (decade - lowDecade) / (highDecade - lowDecade);
    }

    private static String gridLine(final double x1, final double x2, final double y1, final double y2)
    {
        return String.format(Locale.ROOT,
            "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>%n", x1, x2, y1, y2);
    }

    private static String text(final double x, final double y, final String anchor, final String cssClass,
        final String content)
    {
        return String.format(Locale.ROOT, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n",
            cssClass, x, y, anchor, escape(content));
    }

    /** A round number at least {@code value} and not much above it: 1, 1.2, 1.5 ... 8 times a power of ten. */
    static double niceCeiling(final double value)
    {
        if (value <= 0)
        {
            return 1;
        }
        final double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (final double step : new double[]{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10})
        {
            if (step * power >= value)
            {
                return step * power;
            }
        }
        return 10 * power;
    }

    /** {@code 2.34 M}, {@code 512 K}, {@code 96}: records per second at a glance. */
    static String rate(final double perSecond)
    {
        if (perSecond >= 1e6)
        {
            return String.format(Locale.ROOT, "%.3g M", perSecond / 1e6);
        }
        if (perSecond >= 1e3)
        {
            return String.format(Locale.ROOT, "%.3g K", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.3g", perSecond);
    }

    /** {@code 262 µs}, {@code 19.1 ms}, {@code 1.2 s}. */
    static String micros(final double micros)
    {
        if (micros >= 1e6)
        {
            return String.format(Locale.ROOT, "%.3g s", micros / 1e6);
        }
        if (micros >= 1e3)
        {
            return String.format(Locale.ROOT, "%.3g ms", micros / 1e3);
        }
        return String.format(Locale.ROOT, "%.3g \u00b5s", micros);
    }

    private static String percentileLabel(final int nines)
    {
        return nines == 0 ? "0%" : percentile(100 * (1 - Math.pow(10, -nines))) + "%";
    }

    /** {@code 50}, {@code 99}, {@code 99.9}: no trailing zeros. */
    private static String percentile(final double percentile)
    {
        final String text = String.format(Locale.ROOT, "%.4f", percentile);
        return text.replaceAll("\\.?0+$", "");
    }

    static String escape(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
