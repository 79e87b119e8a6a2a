using PerfLab.Contract;
using PerfLab.Tests.Support;
using PerfLab.Views.Charts;

namespace PerfLab.Tests.Unit;

public class ChartTests
{
    [Fact]
    public void Time_axis_turns_logarithmic_when_values_span_more_than_100x()
    {
        var narrow = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("A", 10, 0), Fake.Case("B", 900, 0)));
        var wide = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("A", 10, 0), Fake.Case("B", 1100, 0)));

        Assert.Equal("linear", BenchmarkCharts.Time(narrow).Figure["layout"]!["yaxis"]!["type"]!.GetValue<string>());
        Assert.Equal("log", BenchmarkCharts.Time(wide).Figure["layout"]!["yaxis"]!["type"]!.GetValue<string>());
    }

    [Fact]
    public void One_trace_per_runtime_with_error_bars_and_a_gap_for_a_failed_case()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("A", 10, 0, errorNs: 2), Fake.Case("B", 20, 0)),
            Fake.Outcome("net10.0", "10.0.12", Fake.Case("A", 5, 0, errorNs: 1), Fake.Case("B", 0, 0, error: "boom")));

        var data = BenchmarkCharts.Time(run).Figure["data"]!.AsArray();
        Assert.Equal(["net8.0 (8.0.31)", "net10.0 (10.0.12)"], data.Select(t => t!["name"]!.GetValue<string>()));
        Assert.Equal(2, data[0]!["error_y"]!["array"]![0]!.GetValue<double>());
        Assert.Null(data[1]!["y"]![1]);
    }

    [Fact]
    public void Error_bars_stop_at_zero_when_the_error_is_larger_than_the_mean()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("Noisy", 2, 0, errorNs: 5), Fake.Case("Steady", 8, 0, errorNs: 1)));

        var error = BenchmarkCharts.Time(run).Figure["data"]![0]!["error_y"]!;

        Assert.False((bool)error["symmetric"]!);
        Assert.Equal([5.0, 1.0], error["array"]!.AsArray().Select(v => (double)v!));
        Assert.Equal([2.0, 1.0], error["arrayminus"]!.AsArray().Select(v => (double)v!));
    }

    [Fact]
    public void No_ratio_chart_when_every_ratio_is_one_by_construction()
    {
        var oneRuntime = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net10.0", "10.0.12", Fake.Case("A", 10, 0), Fake.Case("B", 20, 0)));
        var oneMethodAgainstItself = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net10.0", "10.0.12", Fake.Case("A", 10, 0, baseline: true)));
        var twoRuntimes = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("A", 10, 0)), Fake.Outcome("net10.0", "10.0.12", Fake.Case("A", 5, 0)));
        var twoMethods = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net10.0", "10.0.12", Fake.Case("A", 10, 0, baseline: true), Fake.Case("B", 5, 0)));

        Assert.DoesNotContain(BenchmarkCharts.For(oneRuntime), c => c.Id == "ratio");
        Assert.DoesNotContain(BenchmarkCharts.For(oneMethodAgainstItself), c => c.Id == "ratio");
        Assert.Contains(BenchmarkCharts.For(twoRuntimes), c => c.Id == "ratio");
        Assert.Contains(BenchmarkCharts.For(twoMethods), c => c.Id == "ratio");
    }

    [Fact]
    public void Ratio_bars_carry_their_interval_as_error_bars_and_the_baseline_has_none()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", Launches("Sum", null, 20, 22, 21)),
            Fake.Launched("net10.0", "10.0.12", Launches("Sum", null, 10, 11, 10.5)));
        var interval = run.Results[1].RatioInterval!;

        var data = BenchmarkCharts.Ratios(run).Figure["data"]!.AsArray();

        Assert.Null(data[0]!["error_y"]);
        Assert.Equal(interval.High - 0.5, (double)data[1]!["error_y"]!["array"]![0]!, 5);
        Assert.Equal(0.5 - interval.Low, (double)data[1]!["error_y"]!["arrayminus"]![0]!, 5);
    }

    [Fact]
    public void Your_bar_beside_the_posts_ratio_carries_your_interval()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net9.0", "9.0.20", Launches("Sum", "N10-J01", 20, 22, 21)),
            Fake.Launched("net10.0", "10.0.12", Launches("Sum", "N10-J01", 10, 11, 10.5)));
        var interval = run.Results[1].RatioInterval!;

        var yours = PublishedChart.For(run)!.Figure["data"]!.AsArray().Single(t => (string)t!["name"]! == "yours (this machine)")!;

        Assert.Equal(0.5, (double)yours["y"]![0]!, 5);
        Assert.Equal(interval.High - 0.5, (double)yours["error_y"]!["array"]![0]!, 5);
        Assert.Equal(0.5 - interval.Low, (double)yours["error_y"]!["arrayminus"]![0]!, 5);
    }

    private static PerfLab.Results.CaseLaunches Launches(string method, string? category, params double[] means) =>
        new(means.Select(m => Fake.Launch(method, [m], category: category)).ToArray());

    [Fact]
    public void Allocation_chart_only_when_something_allocates()
    {
        var none = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("A", 10, 0)), Fake.Outcome("net10.0", "10.0.12", Fake.Case("A", 5, 0)));
        var some = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("A", 10, 48)), Fake.Outcome("net10.0", "10.0.12", Fake.Case("A", 5, 0)));
        var noise = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("A", 10, 3)), Fake.Outcome("net10.0", "10.0.12", Fake.Case("A", 5, 1)));

        Assert.Equal(["time", "ratio"], BenchmarkCharts.For(none).Select(c => c.Id));
        Assert.Equal(["time", "ratio"], BenchmarkCharts.For(noise).Select(c => c.Id)); // a byte or two from tiering: no object
        Assert.Equal(["time", "allocated", "ratio"], BenchmarkCharts.For(some).Select(c => c.Id));
    }

    [Fact]
    public void A_page_with_20_results_on_3_runtimes_stays_under_5_MB()
    {
        var cases = Enumerable.Range(0, 20).Select(i => Fake.Case($"Method{i}", 10 + i, 64 * i)).ToArray();
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", cases),
            Fake.Outcome("net9.0", "9.0.20", cases),
            Fake.Outcome("net10.0", "10.0.12", cases));

        var bytes = System.Text.Encoding.UTF8.GetByteCount(PerfLab.Views.Html.ResultsHtml.Page(run, "twenty"));
        Assert.True(bytes < 5 * 1024 * 1024, $"{bytes} bytes");
        Assert.Equal(60, run.Results.Count);
    }

    [Fact]
    public void A_case_naming_a_published_figure_is_drawn_beside_the_posts_ratio()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Sum", 30, 88, category: "N10-J01")),
            Fake.Outcome("net9.0", "9.0.20", Fake.Case("Sum", 20, 88, category: "N10-J01")),
            Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 5, 24, category: "N10-J01")));

        Assert.Equal("N10-J01", run.Results[0].Published!.Id);
        var chart = PublishedChart.For(run)!;
        var data = chart.Figure["data"]!.AsArray();
        Assert.Equal("Sum (N10-J01, net10.0 / net9.0)", data[0]!["x"]![0]!.GetValue<string>());
        Assert.Equal(["published (the post's machine)", "reference (course-machine-linux-x64)", "yours (this machine)"], data.Select(t => (string)t!["name"]!));
        Assert.Equal(0.342294, data[0]!["y"]![0]!.GetValue<double>(), 5);
        Assert.InRange(data[1]!["y"]![0]!.GetValue<double>(), 0.1, 0.6); // the committed reference run: 4.05 ns / 13.21 ns
        Assert.Equal(0.25, data[2]!["y"]![0]!.GetValue<double>(), 5);
        Assert.Contains(PerfLab.Results.ResultColumns.PublishedLines(run), l => l.StartsWith("Published N10-J01 (Performance Improvements in .NET 10, dotnet/runtime#115172): net9.0 19.53 ns, 88 B -> net10.0 6.685 ns, 24 B", StringComparison.Ordinal));
        Assert.Contains(PerfLab.Results.ResultColumns.PublishedLines(run), l => l.StartsWith("Reference course-machine-linux-x64 (AMD EPYC, 2 logical cores, full mode): net9.0 ", StringComparison.Ordinal));

        // The reference bar carries its interval (from one process's iterations) as error bars, and its line says so.
        var reference = Assert.Single(PerfLab.Results.ReferenceRuns.For(run.Results[0].Published!, run.Code));
        var interval = reference.Interval!;
        Assert.Equal(interval.High - reference.Ratio, (double)data[1]!["error_y"]!["array"]![0]!, 5);
        Assert.Equal(reference.Ratio - interval.Low, (double)data[1]!["error_y"]!["arrayminus"]![0]!, 5);
        Assert.Contains(PerfLab.Results.ResultColumns.PublishedLines(run), l => l.EndsWith(string.Create(System.Globalization.CultureInfo.InvariantCulture, $", ratio {reference.Ratio:F2} ({interval.Low:F2}–{interval.High:F2} within one process; published 0.34)."), StringComparison.Ordinal));
    }

    [Fact]
    public void An_old_vs_new_figure_is_compared_on_the_runtime_the_post_measured_and_labelled_without_the_posts_method_names()
    {
        // N9-S15: ContainsString (baseline) -> ContainsSpan on net9.0, 0.49 in the post.
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net9.0", "9.0.20", Fake.Case("ContainsString", 100, 208, baseline: true, category: "N9-S15"), Fake.Case("ContainsSpan", 50, 0, category: "N9-S15")),
            Fake.Outcome("net10.0", "10.0.12", Fake.Case("ContainsString", 100, 208, baseline: true, category: "N9-S15"), Fake.Case("ContainsSpan", 80, 0, category: "N9-S15")));

        var data = PublishedChart.For(run)!.Figure["data"]!.AsArray();
        var yours = data.Single(t => (string)t!["name"]! == "yours (this machine)")!;

        Assert.Equal(0.5, yours["y"]![0]!.GetValue<double>(), 5);
        Assert.Contains("yours on net9.0", yours["text"]![0]!.GetValue<string>(), StringComparison.Ordinal);

        // The post's method names go to the hover text; the axis label stays short.
        Assert.Equal("ContainsSpan (N9-S15)", yours["x"]![0]!.GetValue<string>());
        Assert.Contains("ContainsSpan / ContainsString", yours["text"]![0]!.GetValue<string>(), StringComparison.Ordinal);
    }

    [Fact]
    public void An_unknown_category_is_just_a_category()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("Sum", 30, 0, category: "Fast")), Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 20, 0, category: "Fast")));
        Assert.Null(run.Results[0].Published);
        Assert.Null(PublishedChart.For(run));
    }
}
