using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

public class RatioIntervalTests
{
    [Fact]
    public void Launch_means_give_a_pooled_t_interval_on_the_log_scale_around_the_ratio_of_means()
    {
        // One ln-scale variance pooled over both sides, 4 degrees of freedom (t = 2.776), worked out separately.
        var interval = RatioInterval.Of(10.5 / 20, [10, 11, 10.5], [20, 19, 21], IntervalKind.Launches)!;

        Assert.Equal(0.469945579, interval.Low, 8);
        Assert.Equal(0.586504081, interval.High, 8);
        Assert.Equal(IntervalKind.Launches, interval.Kind);
        Assert.False(interval.HoldsOne);
    }

    [Fact]
    public void Launches_that_cannot_be_told_apart_give_an_interval_holding_one()
    {
        var interval = RatioInterval.Of(10.5 / 10.5, [10, 11, 10.5], [10.4, 10.9, 10.2], IntervalKind.Launches)!;

        Assert.Equal(0.910316198, interval.Low, 8);
        Assert.Equal(1.098519396, interval.High, 8);
        Assert.True(interval.HoldsOne);
    }

    [Fact]
    public void The_shown_ratio_lies_inside_even_when_the_launches_are_skewed()
    {
        var ratio = 12.0 / 10;
        var interval = RatioInterval.Of(ratio, [10, 10, 16], [10, 10.1, 9.9], IntervalKind.Launches)!;

        Assert.InRange(ratio, interval.Low, interval.High);
    }

    [Fact]
    public void Rows_with_launches_use_them_and_rows_of_one_process_use_their_iterations()
    {
        var launched = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", Case(Fake.Launch("Sum", [20, 20.5]), Fake.Launch("Sum", [19, 19.5]), Fake.Launch("Sum", [21, 21.5]))),
            Fake.Launched("net10.0", "10.0.12", Case(Fake.Launch("Sum", [10, 10.5]), Fake.Launch("Sum", [11, 11.5]), Fake.Launch("Sum", [10.5, 11]))));
        var oneProcess = Fake.Run(
            BenchmarkMode.Full,
            Fake.Launched("net8.0", "8.0.31", Case(Fake.Launch("Sum", [20, 20.5, 19, 19.5]))),
            Fake.Launched("net10.0", "10.0.12", Case(Fake.Launch("Sum", [10, 10.5, 11, 11.5]))));

        Assert.Equal(IntervalKind.Launches, launched.Results[1].RatioInterval!.Kind);
        Assert.Equal(IntervalKind.Iterations, oneProcess.Results[1].RatioInterval!.Kind);
        Assert.InRange(launched.Results[1].Ratio!.Value, launched.Results[1].RatioInterval!.Low, launched.Results[1].RatioInterval!.High);
    }

    [Fact]
    public void A_quick_interval_also_holds_how_far_quick_mode_strays_from_full_mode_added_in_quadrature()
    {
        // The launches of the first test: t·se = 0.110781 on the log scale; 1.959964 × 0.05 = 0.097998 beside it;
        // sqrt(0.110781² + 0.097998²) = 0.147906, worked out separately (the ends from the unrounded values).
        var interval = RatioInterval.Of(10.5 / 20, [10, 11, 10.5], [20, 19, 21], IntervalKind.Launches, RatioInterval.QuickAgainstFull)!;

        Assert.Equal(0.05, RatioInterval.QuickAgainstFull);
        Assert.Equal(0.452818940, interval.Low, 8);
        Assert.Equal(0.608686996, interval.High, 8);
    }

    [Fact]
    public void Quick_launches_that_agree_exactly_still_get_the_floor_and_full_mode_launches_get_no_widening()
    {
        static BenchmarkRun Run(BenchmarkMode mode) => Fake.Run(
            mode,
            Fake.Launched("net8.0", "8.0.31", Case(Fake.Launch("Sum", [20]), Fake.Launch("Sum", [20]), Fake.Launch("Sum", [20]))),
            Fake.Launched("net10.0", "10.0.12", Case(Fake.Launch("Sum", [10]), Fake.Launch("Sum", [10]), Fake.Launch("Sum", [10]))));

        var quick = Run(BenchmarkMode.Quick).Results[1].RatioInterval!;
        var full = Run(BenchmarkMode.Full).Results[1].RatioInterval!;

        Assert.Equal(0.1029608, RatioInterval.QuickFloor, 6);
        Assert.Equal(0.5 / 1.1029608, quick.Low, 6);
        Assert.Equal(0.5 * 1.1029608, quick.High, 6);
        Assert.Equal((0.5, 0.5), (full.Low, full.High));
    }

    [Fact]
    public void There_is_no_interval_in_smoke_mode_for_the_baseline_itself_or_with_fewer_than_two_values_a_side()
    {
        var smoke = Fake.Run(
            BenchmarkMode.Smoke,
            Fake.Launched("net8.0", "8.0.31", Case(Fake.Launch("Sum", [20, 21]))),
            Fake.Launched("net10.0", "10.0.12", Case(Fake.Launch("Sum", [10, 11]))));
        var single = Fake.Run(
            BenchmarkMode.Quick,
            Fake.Launched("net8.0", "8.0.31", Case(Fake.Launch("Sum", [20]))),
            Fake.Launched("net10.0", "10.0.12", Case(Fake.Launch("Sum", [10, 11]))));

        Assert.All(smoke.Results, r => Assert.Null(r.RatioInterval));
        Assert.Null(single.Results[0].RatioInterval);
        Assert.Null(single.Results[1].RatioInterval);
        Assert.Equal(0.525, single.Results[1].Ratio!.Value, 10);
    }

    [Fact]
    public void A_value_that_is_not_above_zero_has_no_logarithm_and_so_no_interval() =>
        Assert.Null(RatioInterval.Of(0.5, [0, 1, 2], [2, 2.1, 1.9], IntervalKind.Iterations));

    [Fact]
    public void Launches_in_the_same_rounds_take_the_rounds_as_blocks()
    {
        // Two rows of four rounds: the variance left once each row's and each round's level are out, 0.000833034 on the
        // ln scale with 3 degrees of freedom (t = 3.182446), se = sqrt(2 × 0.000833034 / 4): ±0.064950, worked out
        // separately. The same launches as independent samples give ±0.221904: the rounds' shared ups and downs
        // (12 and 25, 13 and 27) are most of their spread.
        double[] row = [10, 12, 11, 13], baseline = [20, 25, 21, 27];
        var ratio = row.Average() / baseline.Average();
        var interval = RatioInterval.InRounds(ratio, [row, baseline])!;
        var independent = RatioInterval.Of(ratio, row, baseline, IntervalKind.Launches)!;

        Assert.Equal(IntervalKind.Rounds, interval.Kind);
        Assert.Equal(0.463519034, interval.Low, 8);
        Assert.Equal(0.527815566, interval.High, 8);
        Assert.True(independent.High / independent.Low > 3 * (interval.High / interval.Low) - 2);
        Assert.Equal(ratio * Math.Exp(0.221904240), independent.High, 6);
    }

    [Fact]
    public void Rows_launched_in_the_same_rounds_get_a_rounds_interval_and_rows_of_different_rounds_an_independent_one()
    {
        // .NET 10's part measured now beside .NET 8's in rounds 1 to 4; in the mixed run, .NET 8's part came from
        // another run's rounds (a cached part): no round is shared, so its launches count as independent samples.
        static CaseLaunches InRounds(double[] means, long firstRound) =>
            new([.. means.Select((m, i) => Fake.Launch("Sum", [m]) with { Round = firstRound + i })]);
        double[] net8 = [20, 25, 21, 27], net10 = [10, 12, 11, 13];
        var together = Fake.Run(BenchmarkMode.Full, Fake.Launched("net8.0", "8.0.31", InRounds(net8, 1)), Fake.Launched("net10.0", "10.0.12", InRounds(net10, 1)));
        var mixed = Fake.Run(BenchmarkMode.Full, Fake.Launched("net8.0", "8.0.31", InRounds(net8, 100)), Fake.Launched("net10.0", "10.0.12", InRounds(net10, 1)));

        Assert.Equal([1L, 2, 3, 4], together.Results[1].LaunchRounds!);
        Assert.Equal(IntervalKind.Rounds, together.Results[1].RatioInterval!.Kind);
        Assert.Equal(0.527815566, together.Results[1].RatioInterval!.High, 8);
        Assert.Equal(IntervalKind.Launches, mixed.Results[1].RatioInterval!.Kind);
        Assert.Equal(together.Results[1].Ratio!.Value * Math.Exp(0.221904240), mixed.Results[1].RatioInterval!.High, 6);
    }

    [Fact]
    public void Too_few_rounds_for_three_degrees_of_freedom_leave_the_launches_independent()
    {
        // Two runtimes over three rounds: 2 degrees of freedom (t = 4.30), wider than the independent interval's t(4) = 2.78.
        Assert.Null(RatioInterval.InRounds(0.5, [[10, 12, 11], [20, 25, 21]]));
        // Three runtimes over three rounds have 4.
        Assert.NotNull(RatioInterval.InRounds(0.5, [[10, 12, 11], [20, 25, 21], [15, 18, 16]]));
        Assert.Null(RatioInterval.InRounds(0.5, [[10, 12, 11, 13], [20, 25, 21]]));
        Assert.Null(RatioInterval.InRounds(0.5, [[10, 12, 0, 13], [20, 25, 21, 27]]));
    }

    private static CaseLaunches Case(params HostResult[] launches) => new(launches);
}
