package io.spool.perf.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark's results as one self-contained HTML page: the headline figures, Spool beside its raw baseline with
 * the ratio, throughput over the run and the latency percentile curve, drawn as inline SVG with inline CSS, so the
 * file opens anywhere, offline, and can be mailed as it is. Stateless.
 */
public final class HtmlReport
{
    private static final String STYLE = """
        body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2937; margin: 0;
               background: #f8fafc; }
        main { max-width: 820px; margin: 0 auto; padding: 24px 20px 48px; }
        h1 { font-size: 24px; margin: 0 0 4px; }
        h2 { font-size: 19px; margin: 0 0 4px; }
        h3 { font-size: 15px; margin: 18px 0 6px; color: #374151; }
        .sub, .setup, figcaption, footer { color: #6b7280; font-size: 13px; }
        code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
        section { background: white; border: 1px solid #e5e7eb; border-radius: 10px; padding: 18px 20px;
                  margin: 20px 0; }
        .cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 10px; margin: 14px 0 4px; }
        .card { border: 1px solid #e5e7eb; border-radius: 8px; padding: 8px 10px; }
        .card .figure { font-size: 21px; font-weight: 600; }
        .card .what { font-size: 12px; color: #6b7280; }
        .card.spool .figure { color: #2563eb; }
        .card.ratio .figure { color: #111827; }
        figure { margin: 8px 0 0; }
        svg { max-width: 100%; height: auto; display: block; }
        svg text { font: 12px system-ui, sans-serif; fill: #374151; }
        svg .tick { fill: #6b7280; font-size: 11px; }
        svg .note { fill: #4b5563; font-size: 11px; }
        svg .value { font-weight: 600; }
        svg .mark-label { font-weight: 600; fill: #1e3a8a; }
        svg .axis { stroke: #9ca3af; }
        svg .grid { stroke: #eef0f3; }
        details pre { background: #f3f4f6; padding: 10px; border-radius: 6px; overflow-x: auto; font-size: 12px; }
        """;

    private HtmlReport()
    {
    }

    /**
     * @param command   the command line that ran, shown under the title.
     * @param generated when and where it ran, shown under the title (for example the date and the machine's cores).
     */
    public static String render(final String command, final String generated, final List<BenchRun> runs)
    {
        final StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
            .append("<title>").append(SvgCharts.escape(command)).append("</title>\n")
            .append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n<main>\n")
            .append("<h1>Spool benchmark report</h1>\n")
            .append("<p class=\"sub\"><code>").append(SvgCharts.escape(command)).append("</code><br>")
            .append(SvgCharts.escape(generated)).append("</p>\n");
        if (runs.size() > 1)
        {
            summary(html, runs);
        }
        for (final BenchRun run : runs)
        {
            section(html, run);
        }
        html.append("""
            <footer>
            <p><b>How to read this page.</b> Each Spool figure stands beside a raw baseline measured in the same run
            on the same machine: the machine may be shared and noisy, so compare the <i>ratio</i> from one run to the
            next, not the records/s. The throughput chart shows whether the rate held steady or dipped (a stall, a
            segment roll, another process); the latency chart spreads the nines evenly from left to right, so the
            tail (99%, 99.9%, the maximum) gets as much room as the median.</p>
            </footer>
            </main>
            </body>
            </html>
            """);
        return html.toString();
    }

    /** Renders the page and writes it to {@code file}, replacing what was there. */
    public static void write(final Path file, final String command, final String generated,
        final List<BenchRun> runs) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(command, generated, runs), StandardCharsets.UTF_8);
    }

    private static void summary(final StringBuilder html, final List<BenchRun> runs)
    {
        final List<SvgCharts.Bar> bars = new ArrayList<>();
        for (final BenchRun run : runs)
        {
            final BenchResult result = run.result();
            bars.add(new SvgCharts.Bar(result.benchmark(), result.measured().recordsPerSec(),
                rateText(result.measured()) + "  (ratio " + ratio(result.ratio()) + ")", SvgCharts.SPOOL_COLOUR));
            bars.add(new SvgCharts.Bar(result.baseline().name(), result.baseline().recordsPerSec(),
                rateText(result.baseline()), SvgCharts.BASELINE_COLOUR));
        }
        html.append("<section>\n<h2>All configurations</h2>\n")
            .append("<p class=\"setup\">Spool (blue) beside its baseline from the same run (grey), records/s.</p>\n")
            .append("<figure>\n")
            .append(SvgCharts.bars("records per second of every configuration beside its baseline", bars, 2, 300))
            .append("</figure>\n</section>\n");
    }

    private static void section(final StringBuilder html, final BenchRun run)
    {
        final BenchResult result = run.result();
        final Throughput measured = result.measured();
        final Throughput baseline = result.baseline();
        final LatencySummary latency = result.latencyPercentiles();
        html.append("<section>\n<h2>").append(SvgCharts.escape("spool bench " + result.benchmark())).append("</h2>\n")
            .append("<p class=\"setup\">").append(SvgCharts.escape(String.format(Locale.ROOT,
                "%,d records of %d B, %d partition(s), %d producer(s), durability %s; %s in %,.3f s",
                measured.records(), measured.valueBytes(), result.partitions(), result.producers(),
                result.durability(), measured.name(), measured.elapsedNanos() / 1e9))).append("</p>\n");

        html.append("<div class=\"cards\">\n");
        card(html, "spool", rateText(measured), String.format(Locale.ROOT, "records/s, %,.1f MB/s — Spool",
            measured.mbPerSec()));
        card(html, "baseline", rateText(baseline), "records/s — " + baseline.name());
        card(html, "ratio", ratio(result.ratio()), "of the baseline, same run");
        card(html, "latency", SvgCharts.micros(latency.p99Micros()), "p99 " + result.latency());
        html.append("</div>\n");

        html.append("<h3>Spool beside its baseline</h3>\n<figure>\n")
            .append(SvgCharts.bars("records per second of Spool and of the baseline", List.of(
                new SvgCharts.Bar("Spool", measured.recordsPerSec(), rateText(measured) + " records/s",
                    SvgCharts.SPOOL_COLOUR),
                new SvgCharts.Bar("baseline", baseline.recordsPerSec(), rateText(baseline) + " records/s",
                    SvgCharts.BASELINE_COLOUR)), 1, 90))
            .append("<figcaption>").append(SvgCharts.escape("Spool: " + measured.name() + "; baseline: " +
                baseline.name() + ". Ratio " + ratio(result.ratio()) + ": Spool does this fraction of what its " +
                "baseline does, on the same machine at the same moment."))
            .append("</figcaption>\n</figure>\n");

        if (!result.rounds().isEmpty())
        {
            rounds(html, result);
        }

        html.append("<h3>Throughput over the run</h3>\n<figure>\n")
            .append(SvgCharts.throughput("records per second over the run", run.throughput(), List.of(
                new SvgCharts.Bar("Spool mean", measured.recordsPerSec(), rateText(measured) + "/s",
                    SvgCharts.SPOOL_COLOUR),
                new SvgCharts.Bar("baseline", baseline.recordsPerSec(), rateText(baseline) + "/s",
                    SvgCharts.BASELINE_COLOUR))))
            .append("<figcaption>").append(SvgCharts.escape(throughputCaption(run))).append("</figcaption>\n")
            .append("</figure>\n");

        html.append("<h3>Latency: ").append(SvgCharts.escape(result.latency())).append("</h3>\n<figure>\n")
            .append(SvgCharts.latency("latency percentiles", run.latency(), latency, latency.samples()))
            .append("<figcaption>").append(SvgCharts.escape(String.format(Locale.ROOT,
                "%,d samples (HdrHistogram): p50 %s, p99 %s, p99.9 %s, max %s.", latency.samples(),
                SvgCharts.micros(latency.p50Micros()), SvgCharts.micros(latency.p99Micros()),
                SvgCharts.micros(latency.p999Micros()), SvgCharts.micros(latency.maxMicros()))))
            .append("</figcaption>\n</figure>\n");

        html.append("<details>\n<summary>The same figures as text</summary>\n<pre>")
            .append(SvgCharts.escape(ResultFormatter.text(result))).append("</pre>\n</details>\n</section>\n");
    }

    /** Each alternated round's pair: whether the ratio held from round to round, or one round carried it. */
    private static void rounds(final StringBuilder html, final BenchResult result)
    {
        final List<SvgCharts.Bar> bars = new ArrayList<>();
        for (int i = 0; i < result.rounds().size(); i++)
        {
            final RoundPair round = result.rounds().get(i);
            bars.add(new SvgCharts.Bar("round " + (i + 1) + " Spool", round.measured().recordsPerSec(),
                rateText(round.measured()) + "  (ratio " + ratio(round.ratio()) + ")", SvgCharts.SPOOL_COLOUR));
            bars.add(new SvgCharts.Bar("round " + (i + 1) + " baseline", round.baseline().recordsPerSec(),
                rateText(round.baseline()) + (round.spoolFirst() ? "" : "  (went first)"), SvgCharts.BASELINE_COLOUR));
        }
        html.append("<h3>Round by round</h3>\n<figure>\n")
            .append(SvgCharts.bars("records per second of Spool and of the baseline in each round", bars, 2, 160))
            .append("<figcaption>").append(SvgCharts.escape("The two sides alternate, taking turns going first, so "
                + "a change of load on the machine weighs on both; the figures above add up these rounds."))
            .append("</figcaption>\n</figure>\n");
    }

    private static String throughputCaption(final BenchRun run)
    {
        int points = 0;
        for (final ThroughputSeries series : run.throughput())
        {
            points += series.points();
        }
        return points + " points: each is the rate over the interval that ends there (sampled from the count the "
            + "progress line reads, or one point per timed pass where passes alternate with the baseline's). "
            + "Dashed lines: Spool's mean and the baseline.";
    }

    private static void card(final StringBuilder html, final String kind, final String figure, final String what)
    {
        html.append("<div class=\"card ").append(kind).append("\"><div class=\"figure\">")
            .append(SvgCharts.escape(figure)).append("</div><div class=\"what\">").append(SvgCharts.escape(what))
            .append("</div></div>\n");
    }

    private static String rateText(final Throughput throughput)
    {
        return SvgCharts.rate(throughput.recordsPerSec());
    }

    private static String ratio(final double ratio)
    {
        return String.format(Locale.ROOT, "%.3g", ratio);
    }
}
