package io.spool.perf.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class HtmlReportTest
{
    private static final Pattern SVG = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL);

    @Test
    void aRunGetsItsFiguresABarChartAThroughputChartAndALatencyChart() throws Exception
    {
        final String html = HtmlReport.render("spool bench ingest --records 1000", "Mon, 30 Nov 2026", List.of(
            run("ingest", 2_000_000, 10_000_000)));

        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n")
            .contains("<code>spool bench ingest --records 1000</code>")
            .contains("<div class=\"figure\">2.00 M</div>", "<div class=\"figure\">10.0 M</div>",
                "<div class=\"figure\">0.200</div>");
        final List<Document> charts = svgCharts(html);
        assertThat(charts).hasSize(3);

        final Document bars = charts.get(0);
        assertThat(bars.getElementsByTagName("rect").getLength()).isEqualTo(2);
        assertThat(bars.getDocumentElement().getTextContent()).contains("2.00 M records/s", "10.0 M records/s");

        final Document throughput = charts.get(1);
        assertThat(throughput.getElementsByTagName("polyline").getLength()).isEqualTo(2);
        assertThat(throughput.getElementsByTagName("circle").getLength()).isEqualTo(4 + 3);
        assertThat(throughput.getDocumentElement().getTextContent())
            .contains("spool ingest pipeline", "raw mapped append", "records/s", "Spool mean 2.00 M/s",
                "baseline 10.0 M/s");

        final Document latency = charts.get(2);
        assertThat(latency.getDocumentElement().getTextContent())
            .contains("p50 500 \u00b5s", "p99 990 \u00b5s", "p99.9 999 \u00b5s", "max 1.00 ms", "99.9%");
    }

    @Test
    void aBaselineFarAboveTheLinesIsNotedInsteadOfFlatteningThem() throws Exception
    {
        final BenchRun run = run("ingest", 1_000, 1_000_000);
        final BenchRun spoolLineOnly = new BenchRun(run.result(), run.throughput().subList(0, 1), run.latency());

        final String html = HtmlReport.render("spool bench ingest", "today", List.of(spoolLineOnly));

        assertThat(svgCharts(html).get(1).getDocumentElement().getTextContent())
            .contains("baseline 1.00 M/s (above the scale)");
    }

    @Test
    void severalRunsGetASummaryOfEveryConfigurationFirst() throws Exception
    {
        final String html = HtmlReport.render("spool bench queue", "today", List.of(
            run("queue (1 consumer(s), prefetch 1)", 80_000, 6_000_000),
            run("queue (4 consumer(s), prefetch 1000)", 3_000_000, 60_000_000)));

        final List<Document> charts = svgCharts(html);
        assertThat(charts).hasSize(1 + 2 * 3);
        assertThat(charts.get(0).getElementsByTagName("rect").getLength()).isEqualTo(4);
        assertThat(charts.get(0).getDocumentElement().getTextContent())
            .contains("queue (1 consumer(s), prefetch 1)", "80.0 K  (ratio 0.0133)",
                "queue (4 consumer(s), prefetch 1000)", "3.00 M  (ratio 0.0500)");
    }

    @Test
    void thePageNeedsNothingBesideIt()
    {
        final String html = HtmlReport.render("spool bench replay", "today", List.of(run("replay", 5, 10)));

        assertThat(html).doesNotContain("<script src", "<link", "@import", "url(")
            .doesNotContain("https://");
        assertThat(html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "")).doesNotContain("http://");
    }

    @Test
    void textFromTheCommandLineIsEscaped()
    {
        final String html = HtmlReport.render("spool bench ingest --data-dir <a&b>", "today",
            List.of(run("ingest", 5, 10)));

        assertThat(html).contains("&lt;a&amp;b&gt;").doesNotContain("<a&b>");
    }

    /** A run of a given rate and baseline, with four throughput points and latencies of 1 to 1,000 µs. */
    private static BenchRun run(final String benchmark, final double recordsPerSec, final double baselinePerSec)
    {
        final long records = 1_000_000;
        final Histogram nanos = new Histogram(3);
        for (int micros = 1; micros <= 1_000; micros++)
        {
            nanos.recordValue(micros * 1_000L);
        }
        final BenchResult result = new BenchResult(benchmark, 1, 1, "none",
            new Throughput("spool ingest pipeline", records, 100, (long)(records * 1e9 / recordsPerSec)),
            new Throughput("raw mapped append", records, 100, (long)(records * 1e9 / baselinePerSec)),
            "publish to confirm", LatencySummary.ofNanos(nanos), BenchResult.FSYNCS_NOT_COUNTED);
        return new BenchRun(result, List.of(
            new ThroughputSeries("spool ingest pipeline", new double[]{0.1, 0.2, 0.3, 0.4},
                new double[]{recordsPerSec * 0.5, recordsPerSec, recordsPerSec * 1.2, recordsPerSec * 1.1}),
            new ThroughputSeries("raw mapped append", new double[]{0.1, 0.2, 0.3},
                new double[]{baselinePerSec, baselinePerSec * 0.9, baselinePerSec * 1.1})),
            LatencyDistribution.ofNanos(nanos));
    }

    /** Every chart, parsed as XML: which also checks that each one is well-formed. */
    private static List<Document> svgCharts(final String html) throws Exception
    {
        final List<Document> charts = new ArrayList<>();
        final Matcher svg = SVG.matcher(html);
        while (svg.find())
        {
            charts.add(DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new InputSource(new StringReader(svg.group()))));
        }
        return charts;
    }
}
