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
        Assert.EndsWith("? where the baseline has no time to divide by: it measured 0 ns, or did not run.", ResultColumns.RatioLegend(zeroBaseline), StringComparison.Ordinal);
        Assert.Equal("Ratio: mean / the baseline method's mean on the same runtime.", ResultColumns.RatioLegend(measured));
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
