using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Tests.Support;
using PerfLab.Views.Charts;
using PerfLab.Views.Html;

namespace PerfLab.Tests.Unit;

public class BreakEvenTests
{
    private static readonly BreakEvenSide Plain = new("Dictionary", "BuildPlain", "ReadPlain");
    private static readonly BreakEvenSide Prepared = new("Frozen", "BuildFrozen", "ReadFrozen");

    private static RuntimeOutcome Outcome(string moniker, double buildPlain, double readPlain, double buildFrozen, double readFrozen, string? failing = null) =>
        Fake.Outcome(moniker, moniker[3..] + ".0",
            Fake.Case("BuildPlain", buildPlain, 0, error: failing == "BuildPlain" ? "boom" : null),
            Fake.Case("ReadPlain", readPlain, 0),
            Fake.Case("BuildFrozen", buildFrozen, 0),
            Fake.Case("ReadFrozen", readFrozen, 0));

    [Fact]
    public void Reads_per_build_where_the_totals_meet_divide_the_extra_build_by_the_saving_per_read()
    {
        // Reads per call 100: a read costs 5 ns plain and 3 ns frozen; the frozen build costs 4,000 ns more.
        var run = Fake.Run(BenchmarkMode.Quick, Outcome("net9.0", 1000, 500, 5000, 300));

        var point = Assert.Single(BreakEven.From(run, Plain, Prepared, readsPerCall: 100).Points);

        Assert.Equal(5, point.PlainRead, 9);
        Assert.Equal(3, point.PreparedRead, 9);
        Assert.Equal(2000, point.Reads!.Value, 9);
        Assert.Equal(point.CostPerRead(prepared: false, 2000), point.CostPerRead(prepared: true, 2000), 9);
        Assert.True(point.CostPerRead(prepared: true, 1999) > point.CostPerRead(prepared: false, 1999));
    }

    [Fact]
    public void A_prepared_structure_that_reads_no_faster_never_pays_and_one_that_builds_no_slower_pays_at_once()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Outcome("net8.0", 1000, 500, 5000, 500), Outcome("net10.0", 1000, 500, 900, 400));

        var breakEven = BreakEven.From(run, Plain, Prepared, readsPerCall: 100);

        Assert.Null(breakEven.Points[0].Reads);
        Assert.Equal(0, breakEven.Points[1].Reads);
        Assert.Contains($"net8.0: build {QuantityText.Time(1000)} vs {QuantityText.Time(5000)}", breakEven.ToString(), StringComparison.Ordinal);
        Assert.StartsWith("never pays off", breakEven.Verdict(breakEven.Points[0]), StringComparison.Ordinal);
        Assert.StartsWith("pays off from the first read", breakEven.Verdict(breakEven.Points[1]), StringComparison.Ordinal);
    }

    [Fact]
    public void A_runtime_with_a_failed_method_is_skipped_and_said_so()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Outcome("net8.0", 1000, 500, 5000, 300, failing: "BuildPlain"), Outcome("net9.0", 1000, 500, 5000, 300));

        var breakEven = BreakEven.From(run, Plain, Prepared, readsPerCall: 100);

        Assert.Equal("net9.0", Assert.Single(breakEven.Points).Runtime);
        Assert.Equal("net8.0: BuildPlain has no measurement", Assert.Single(breakEven.Skipped));
    }

    [Fact]
    public void A_method_the_run_did_not_measure_is_named_with_the_ones_it_did()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Outcome("net9.0", 1000, 500, 5000, 300));

        var error = Assert.Throws<PerfLabException>(() => BreakEven.From(run, Plain, Prepared with { ReadMethod = "ReadFrozn" }));

        Assert.Equal("The run has no method named ReadFrozn; it measured BuildPlain, ReadPlain, BuildFrozen, ReadFrozen.", error.Message);
        Assert.Throws<PerfLabException>(() => BreakEven.From(run, Plain, Prepared, readsPerCall: 0));
    }

    [Fact]
    public void The_chart_draws_two_lines_per_runtime_on_log_axes_and_marks_the_crossing()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Outcome("net9.0", 1000, 500, 5000, 300), Outcome("net10.0", 1000, 500, 5000, 500));
        var breakEven = BreakEven.From(run, Plain, Prepared, readsPerCall: 100);

        var figure = BenchmarkCharts.BreakEven(breakEven).Figure;
        var traces = figure["data"]!.AsArray();

        Assert.Equal(["net9.0 Dictionary", "net9.0 Frozen", "net9.0 break-even", "net10.0 Dictionary", "net10.0 Frozen"], traces.Select(t => t!["name"]!.GetValue<string>()));
        Assert.Equal(2000, traces[2]!["x"]![0]!.GetValue<double>());
        Assert.Equal("log", figure["layout"]!["xaxis"]!["type"]!.GetValue<string>());
        Assert.Equal("log", figure["layout"]!["yaxis"]!["type"]!.GetValue<string>());
        // The x axis reaches past the crossing: 2,000 reads -> at least 10^5.
        Assert.True(traces[0]!["x"]!.AsArray()[^1]!.GetValue<double>() >= 1e5);
        Assert.Contains("pays off from 2,000 reads per build", BreakEvenHtml.Fragment(breakEven, new NotebookPage()), StringComparison.Ordinal);
        Assert.NotNull(NotebookFormatterSource.ToHtml(breakEven, new NotebookPage()));
    }
}
