using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Tests.Support;
using PerfLab.Views.Json;

namespace PerfLab.Tests.Unit;

public class ResultBuilderTests
{
    [Fact]
    public void Without_a_baseline_method_each_case_compares_with_the_first_runtime_listed()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net9.0", "9.0.20", Fake.Case("Sum", 200, 64)),
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Sum", 400, 128)),
            Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 100, 0)));

        Assert.Equal("runtime:net9.0", run.Baseline);
        Assert.Equal([1.0, 2.0, 0.5], run.Results.Select(r => r.Ratio!.Value));
        Assert.Equal([1.0, 2.0, 0.0], run.Results.Select(r => r.AllocRatio!.Value));
    }

    [Fact]
    public void A_baseline_method_makes_ratios_compare_methods_on_the_same_runtime()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Old", 300, 100, baseline: true), Fake.Case("New", 150, 50)),
            Fake.Outcome("net10.0", "10.0.12", Fake.Case("Old", 200, 100, baseline: true), Fake.Case("New", 50, 0)));

        Assert.Equal("method", run.Baseline);
        Assert.Equal([1.0, 0.5, 1.0, 0.25], run.Results.Select(r => r.Ratio!.Value));
        Assert.Equal([1.0, 0.5, 1.0, 0.0], run.Results.Select(r => r.AllocRatio!.Value));
    }

    [Fact]
    public void Ratios_against_a_zero_or_missing_baseline_are_unknown()
    {
        Assert.Null(ResultBuilder.Ratio(10, 0));
        Assert.Null(ResultBuilder.Ratio(null, 5));
        Assert.Null(ResultBuilder.Ratio(5, null));
    }

    [Fact]
    public void A_question_mark_ratio_is_explained_in_the_legend_only_when_a_row_has_one()
    {
        var zeroBaseline = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Constant", 0, 0, baseline: true), Fake.Case("Computed", 0.4, 0)));
        var measured = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Old", 2, 0, baseline: true), Fake.Case("New", 1, 0)));

        Assert.Equal("?", QuantityText.Ratio(zeroBaseline.Results[1].Ratio));
        Assert.DoesNotContain("? in Fastest ratio", ResultColumns.RatioLegend(measured), StringComparison.Ordinal);
        Assert.EndsWith("? where the baseline has no time to divide by: it measured 0 ns, or did not run.", ResultColumns.RatioLegend(zeroBaseline), StringComparison.Ordinal);
        Assert.StartsWith("Ratio: mean / the baseline method's mean on the same runtime. Fastest ratio (\"fastest\" under Ratio on a page):", ResultColumns.RatioLegend(measured), StringComparison.Ordinal);
    }

    [Fact]
    public void The_ratio_column_shows_the_interval_and_says_no_clear_difference_where_it_holds_one()
    {
        static CaseLaunches Launches(string method, params double[] means) => new(means.Select(m => Fake.Launch(method, [m])).ToArray());
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", Launches("Sum", 20, 22, 21), Launches("Same", 10.4, 10.9, 10.2)),
            Fake.Launched("net10.0", "10.0.12", Launches("Sum", 10, 11, 10.5), Launches("Same", 10, 11, 10.5)));

        Assert.Equal(["1.00", "1.00", "0.50 (0.43–0.58)", "no clear difference (0.87–1.15)"], run.Results.Select(ResultColumns.RatioCell));
        Assert.Equal(
            "Ratio: mean / the same benchmark's mean on net8.0. In brackets, its 95% interval across 3 launches (separate processes) of each case on each runtime, so it covers what changes from one process to the next, widened by how far quick mode's short runs stray from full mode's (so never narrower than ±10%); \"no clear difference\" where the interval holds 1.",
            ResultColumns.RatioLegend(run)[..ResultColumns.RatioLegend(run).IndexOf(" Fastest ratio", StringComparison.Ordinal)]);
    }

    [Fact]
    public void The_legend_says_what_an_interval_in_rounds_covers()
    {
        static CaseLaunches InRounds(params double[] means) => new(means.Select((m, i) => Fake.Launch("Sum", [m]) with { Round = 1_000 + i }).ToArray());
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", InRounds(20, 25, 21, 27)),
            Fake.Launched("net10.0", "10.0.12", InRounds(10, 12, 11, 13)));

        Assert.Equal(IntervalKind.Rounds, run.Results[1].RatioInterval!.Kind);
        Assert.Contains(
            "its 95% interval across 4 rounds of launches (separate processes), a case's runtimes taking turns in each, so it covers what changes from one process to the next but not what the machine did to a whole round: that fell on every runtime alike, widened by",
            ResultColumns.RatioLegend(run),
            StringComparison.Ordinal);
    }

    [Fact]
    public void Methods_launched_in_the_same_rounds_get_an_interval_in_rounds_and_the_legend_says_so()
    {
        static CaseLaunches InRounds(string method, bool baseline, params double[] means) =>
            new(means.Select((m, i) => Fake.Launch(method, [m], baseline) with { Round = 1_000 + i }).ToArray());
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net10.0", "10.0.12", InRounds("Old", true, 20, 25, 21, 27), InRounds("New", false, 10, 12, 11, 13)));

        Assert.Equal(IntervalKind.Rounds, run.Results[1].RatioInterval!.Kind);
        Assert.Contains(
            "across 4 rounds of launches (separate processes), the class's methods on every runtime taking turns in each, so it covers what changes from one process to the next but not what the machine did to a whole round: that fell on every method alike",
            ResultColumns.RatioLegend(run),
            StringComparison.Ordinal);
    }

    [Fact]
    public void The_fastest_ratio_takes_each_launchs_fastest_iteration_from_the_faster_half_of_the_launches()
    {
        // Fastest iterations per launch: .NET 8 20, 22, 19, 40 (the last launch in a slow phase); .NET 10 10, 11, 10.5, 20.
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", new CaseLaunches([Fake.Launch("Sum", [20, 21]), Fake.Launch("Sum", [22, 30]), Fake.Launch("Sum", [19, 25]), Fake.Launch("Sum", [40, 45])])),
            Fake.Launched("net10.0", "10.0.12", new CaseLaunches([Fake.Launch("Sum", [10, 12]), Fake.Launch("Sum", [11, 11]), Fake.Launch("Sum", [10.5, 13]), Fake.Launch("Sum", [20, 20])])));

        var (baseline, row) = (run.Results[0], run.Results[1]);
        Assert.Equal((1.0, null), (baseline.FastestRatio, baseline.FastestRatioInterval));
        // Worked by hand: sqrt(10 x 10.5) / sqrt(19 x 20); on the logs, pooled t at 2 degrees of freedom (4.3027) in
        // quadrature with 1.96 x 0.04 for quick mode.
        Assert.Equal(0.5256574830, row.FastestRatio!.Value, 9);
        Assert.Equal(0.4429066981, row.FastestRatioInterval!.Low, 6);
        Assert.Equal(0.6238690691, row.FastestRatioInterval.High, 6);
        Assert.Equal(["1.00", "0.53 (0.44–0.62)"], run.Results.Select(ResultColumns.FastestRatioCell));
        Assert.Contains(ResultColumns.FastestHeader, ResultColumns.For(run).Select(c => c.Header));
        Assert.Contains("Fastest ratio (\"fastest\" under Ratio on a page): the same comparison by the fastest iterations", ResultColumns.RatioLegend(run), StringComparison.Ordinal);
        // A page shows it under Ratio, not as a column of its own, and not under a baseline row.
        var page = ResultColumns.For(run, fastestUnderRatio: true);
        Assert.DoesNotContain(ResultColumns.FastestHeader, page.Select(c => c.Header));
        Assert.Equal(["1.00", "0.48 (0.28–0.83)\nfastest: 0.53 (0.44–0.62)"], run.Results.Select(page.Single(c => c.Header == "Ratio").Cell));
        Assert.Contains("widened by how far quick mode's fastest iterations stray from full mode's (so never narrower than ±8%)", ResultColumns.RatioLegend(run), StringComparison.Ordinal);
    }

    [Fact]
    public void One_process_a_side_gives_the_fastest_ratio_without_an_interval_and_smoke_mode_none()
    {
        Func<BenchmarkMode, BenchmarkRun> measured = mode => Fake.Run(
            mode,
            Fake.Launched("net8.0", "8.0.31", new CaseLaunches([Fake.Launch("Sum", [20, 24, 30])])),
            Fake.Launched("net10.0", "10.0.12", new CaseLaunches([Fake.Launch("Sum", [12, 10, 11])])));

        var full = measured(BenchmarkMode.Full).Results[1];
        Assert.Equal(0.5, full.FastestRatio!.Value, 12);
        Assert.Null(full.FastestRatioInterval);
        Assert.DoesNotContain("Its interval", ResultColumns.RatioLegend(measured(BenchmarkMode.Full)), StringComparison.Ordinal);

        // Overhead subtraction can leave a sub-nanosecond case's fastest iteration at 0: nothing to divide.
        var zero = Fake.Run(
            BenchmarkMode.Full,
            Fake.Launched("net8.0", "8.0.31", new CaseLaunches([Fake.Launch("Sum", [0, 0.5, 0.7])])),
            Fake.Launched("net10.0", "10.0.12", new CaseLaunches([Fake.Launch("Sum", [0.2, 0.4, 0.3])])));
        Assert.Null(zero.Results[1].FastestRatio);
        Assert.Equal("?", ResultColumns.FastestRatioCell(zero.Results[1]));
        Assert.EndsWith("? in Fastest ratio where a side's fastest iteration measured 0 ns or less once the overhead was subtracted.", ResultColumns.RatioLegend(zero), StringComparison.Ordinal);

        var smoke = measured(BenchmarkMode.Smoke);
        Assert.All(smoke.Results, r => Assert.Null(r.FastestRatio));
        Assert.DoesNotContain(ResultColumns.FastestHeader, ResultColumns.For(smoke).Select(c => c.Header));
    }

    [Fact]
    public void The_legend_says_when_an_interval_comes_from_one_process_only()
    {
        var run = Fake.Run(
            BenchmarkMode.Full,
            Fake.Launched("net8.0", "8.0.31", new CaseLaunches([Fake.Launch("Sum", [20, 21, 19])])),
            Fake.Launched("net10.0", "10.0.12", new CaseLaunches([Fake.Launch("Sum", [10, 11, 10.5])])));

        Assert.Contains("95% interval from the iterations within one process of each case on each runtime, which does not cover what changes from one process to the next", ResultColumns.RatioLegend(run), StringComparison.Ordinal);
    }

    [Fact]
    public void Sub_nanosecond_and_noisy_results_are_flagged()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Empty", 0.0125, 0, errorNs: 0.0001), Fake.Case("Jittery", 100, 0, errorNs: 30)));

        Assert.Contains(run.Results[0].Warnings, w => w.StartsWith("Sub-nanosecond mean (0.0125 ns)", StringComparison.Ordinal));
        Assert.Contains(run.Results[1].Warnings, w => w.StartsWith("Noisy: the error is 30", StringComparison.Ordinal));
        Assert.DoesNotContain(run.Results[1].Warnings, w => w.StartsWith("Sub-nanosecond", StringComparison.Ordinal));
    }

    [Fact]
    public void Smoke_numbers_are_labelled_meaningless_and_not_judged()
    {
        var run = Fake.Run(BenchmarkMode.Smoke, Fake.Outcome("net8.0", "8.0.31", Fake.Case("Empty", 0.01, 0, n: 1)));
        Assert.Contains(run.Warnings, w => w.StartsWith("Smoke mode", StringComparison.Ordinal));
        Assert.Empty(run.Results[0].Warnings);
    }

    [Fact]
    public void A_failed_case_keeps_its_error_and_has_no_ratio()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net8.0", "8.0.31", Fake.Case("Sum", 100, 0)),
            Fake.Outcome("net9.0", "9.0.20", Fake.Case("Sum", 0, 0, error: "boom")));
        Assert.True(run.HasErrors);
        Assert.Equal("boom", run.Results[1].Error);
        Assert.Null(run.Results[1].Ratio);
    }

    [Fact]
    public void A_rows_statistics_take_every_launchs_iterations_together_and_keep_each_launchs_mean_and_fastest_iteration()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", new CaseLaunches([
                Fake.Launch("Sum", [10, 12], allocated: 24, operations: 1000),
                Fake.Launch("Sum", [11, 13, 15], allocated: 42, operations: 3000),
                Fake.Launch("Sum", [9], allocated: 24, operations: 1000)])));

        var row = Assert.Single(run.Results);
        var stats = row.Statistics!;
        Assert.Equal([10.0, 12, 11, 13, 15, 9], row.MeasurementsNs);
        Assert.Equal([11.0, 13, 9], row.LaunchMeansNs!);
        Assert.Equal([10.0, 11, 9], row.LaunchMinsNs!);
        Assert.Equal(70.0 / 6, stats.Mean, 12);
        Assert.Equal((11.5, 9, 15, 6), (stats.Median, stats.Min, stats.Max, stats.N));
        Assert.Equal(Math.Sqrt(14.0 / 3), stats.StdDev, 12);
        // BenchmarkDotNet's Error: half the 99.9% confidence interval, t(0.9995, 5) = 6.8688.
        Assert.Equal(6.8688 * Math.Sqrt(14.0 / 3) / Math.Sqrt(6), stats.Error, 3);
        // Bytes: the fewest any launch counted; the 42 of the second is another thread's allocation landing in its count.
        Assert.Equal(24, row.AllocatedBytes);
    }

    [Fact]
    public void A_failed_launch_fails_the_case_with_its_reason_and_says_which_launch_after_launches_that_measured()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched(
                "net8.0",
                "8.0.31",
                new CaseLaunches([Fake.Case("First", 0, 0, error: "boom")]),
                new CaseLaunches([Fake.Launch("Second", [10, 11]), Fake.Case("Second", 0, 0, error: "Timed out: the case did not finish")])));

        Assert.Equal("boom", run.Results[0].Error);
        Assert.Equal("Timed out: the case did not finish\n(in launch 2; the launches before it measured)", run.Results[1].Error);
        Assert.True(run.Results[1].TimedOut);
        Assert.All(run.Results, r => Assert.Null(r.Statistics));
    }

    [Fact]
    public void Json_keeps_launch_means_and_minimums_and_the_ratio_interval()
    {
        var run = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", new CaseLaunches([Fake.Launch("Sum", [20]), Fake.Launch("Sum", [21]), Fake.Launch("Sum", [19])])),
            Fake.Launched("net10.0", "10.0.12", new CaseLaunches([Fake.Launch("Sum", [10]), Fake.Launch("Sum", [11]), Fake.Launch("Sum", [10.5])])));

        var json = ResultJson.Serialize(run);
        var back = ResultJsonReader.Read(json);

        Assert.Contains("\"kind\": \"launches\"", json, StringComparison.Ordinal);
        Assert.Equal(run.Results[1].RatioInterval, back.Results[1].RatioInterval);
        Assert.Equal([10.0, 11, 10.5], back.Results[1].LaunchMeansNs!);
        Assert.Equal([10.0, 11, 10.5], back.Results[1].LaunchMinsNs!);
    }

    [Fact]
    public void Json_written_before_intervals_and_fastest_ratios_gets_them_from_what_it_kept_when_read()
    {
        var run = Fake.Run(
            BenchmarkMode.Full,
            Fake.Launched("net8.0", "8.0.31", new CaseLaunches([Fake.Launch("Sum", [20, 21, 19, 20.5])])),
            Fake.Launched("net10.0", "10.0.12", new CaseLaunches([Fake.Launch("Sum", [10, 11, 10.5, 10.2])])));
        var old = System.Text.Json.Nodes.JsonNode.Parse(ResultJson.Serialize(run))!;
        foreach (var row in old["results"]!.AsArray())
        {
            foreach (var field in new[] { "ratioInterval", "launchMeansNs", "launchMinsNs", "fastestRatio", "fastestRatioInterval" })
            {
                row!.AsObject().Remove(field);
            }
        }

        var back = ResultJsonReader.Read(old.ToJsonString());

        Assert.Null(back.Results[0].RatioInterval);
        Assert.Equal(run.Results[1].RatioInterval, back.Results[1].RatioInterval);
        Assert.Equal(IntervalKind.Iterations, back.Results[1].RatioInterval!.Kind);
        // From each side's fastest iteration overall: 10 / 19.
        Assert.Equal(1.0, back.Results[0].FastestRatio!.Value);
        Assert.Equal(10 / 19.0, back.Results[1].FastestRatio!.Value, 12);
        Assert.Null(back.Results[1].FastestRatioInterval);
    }

    [Fact]
    public void Json_round_trips_and_names_its_schema_version()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("Sum", 100, 24, parameters: new CaseParameter("N", "10"))));
        var json = ResultJson.Serialize(run);
        Assert.Contains("\"schemaVersion\": 1", json, StringComparison.Ordinal);
        Assert.Contains("\"mode\": \"quick\"", json, StringComparison.Ordinal);
        var back = ResultJsonReader.Read(json);
        Assert.Equal(run.Results[0].Statistics, back.Results[0].Statistics);
        Assert.Equal("N", back.Results[0].Parameters[0].Name);
    }

    [Fact]
    public void Json_of_another_schema_version_is_refused_clearly()
    {
        var json = ResultJson.Serialize(Fake.Run(BenchmarkMode.Quick)).Replace("\"schemaVersion\": 1", "\"schemaVersion\": 99", StringComparison.Ordinal);
        var ex = Assert.Throws<PerfLabException>(() => ResultJsonReader.Read(json));
        Assert.Contains("schema version 99", ex.Message, StringComparison.Ordinal);
    }
}
