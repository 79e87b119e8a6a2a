using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Tests.Unit;

public class LaunchPlanTests
{
    private static readonly BenchmarkRequest Quick = new() { Source = "", SourcePath = "Plan.cs", Mode = BenchmarkMode.Quick };

    // Four launches within about 1% of each other; four spread by a sixth, whose interval two more launches would
    // bring within the target (half-width 0.18 at four launches a side, 0.13 at six, worked out separately); and four
    // spread by a third, which six launches would not (0.32 at four, 0.24 at six).
    private static readonly double[] Close = [100, 101, 99.5, 100.4];
    private static readonly double[] Reachable = [100, 116, 92, 110];
    private static readonly double[] Spread = [100, 135, 90, 120];

    [Fact]
    public void Half_width_is_that_of_the_tables_interval_for_a_ratio_between_two_cases_spread_alike()
    {
        // ln-scale sd of Spread 0.18153 (worked out separately), se = sd * sqrt(2/4), t(6) = 2.44691: exp(0.31409) = 1.369012.
        Assert.Equal((1.369012 - (1 / 1.369012)) / 2, LaunchPlan.HalfWidth(Spread), 4);
        Assert.InRange(LaunchPlan.HalfWidth(Close), 0.005, 0.02);
        Assert.Equal(0, LaunchPlan.HalfWidth([100]));
        Assert.Equal(0, LaunchPlan.HalfWidth([100, 0]));
        Assert.Equal(LaunchPlan.HalfWidth(Spread), LaunchPlan.HalfWidthAt(Spread, Spread.Length), 12);
        Assert.Equal(0.1786, LaunchPlan.HalfWidth(Reachable), 3);
        Assert.Equal(0.1325, LaunchPlan.HalfWidthAt(Reachable, QuickJob.MaxLaunches), 3);
        Assert.Equal(0.2357, LaunchPlan.HalfWidthAt(Spread, QuickJob.MaxLaunches), 3);
    }

    [Fact]
    public void Quick_mode_runs_its_launches_then_more_only_while_a_runtime_spreads_beyond_the_target()
    {
        Assert.True(LaunchPlan.WantsAnother(Quick, 0, []));
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.Launches - 1, [Close, Close]));
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.Launches - 1, [Close, Spread]));
        Assert.False(LaunchPlan.WantsAnother(Quick, QuickJob.Launches, [Close, Close]));
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.Launches, [Close, Reachable]));
        Assert.False(LaunchPlan.WantsAnother(Quick, QuickJob.MaxLaunches, [Close, Reachable]));
    }

    [Fact]
    public void Quick_mode_adds_no_round_that_could_not_bring_a_runtime_within_the_target()
    {
        // Spread as it is, six launches a side would still leave ±24%: two more cost about three seconds a runtime and
        // change nothing the reader sees but a slightly narrower wide interval.
        Assert.False(LaunchPlan.WantsAnother(Quick, QuickJob.Launches, [Close, Spread]));
        // Another runtime that two more launches would bring within the target still gets its round, on every runtime.
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.Launches, [Spread, Reachable]));
    }

    [Fact]
    public void Runtimes_taking_turns_are_judged_by_their_rounds_not_each_runtimes_spread()
    {
        // Reachable's rounds with a second runtime that moved with them (within 1%): the machine slowed whole rounds,
        // which drops out of their ratio, so no more launches; independently judged, Reachable's spread asks for two.
        double[] withIt = [50, 58.58, 45.54, 55];
        Assert.False(LaunchPlan.WantsAnother(Quick, QuickJob.Launches, [Reachable, withIt], inRounds: true));
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.Launches, [Reachable, withIt]));
        // Beside a runtime that did not move with it: ±16% in rounds at four (t(3)), ±11% at six (worked out separately).
        double[] flat = [100, 100, 100, 100];
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.Launches, [Reachable, flat], inRounds: true));
        // Spread beside it: ±29% at four, ±19% at six, out of reach.
        Assert.False(LaunchPlan.WantsAnother(Quick, QuickJob.Launches, [Spread, flat], inRounds: true));
    }

    [Fact]
    public void Three_runtimes_taking_turns_stop_after_three_rounds_when_their_interval_in_rounds_is_already_within_the_target()
    {
        // Three rounds the machine moved as a whole, every runtime with it (within 1%): in rounds, under ±1%.
        double[][] together = [[100, 110, 95], [50, 55.4, 47.3], [30, 33.1, 28.4]];
        Assert.False(LaunchPlan.WantsAnother(Quick, QuickJob.FewestLaunches, together, inRounds: true));
        // Not before its fewest rounds, nor judged independently (each runtime alone spreads by 15%), nor with two
        // runtimes, whose interval over three rounds has too few degrees of freedom to be in rounds.
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.FewestLaunches - 1, [.. together.Select(r => r[..2])], inRounds: true));
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.FewestLaunches, together));
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.FewestLaunches, together[..2], inRounds: true));
        // A request that names its launches gets them all.
        Assert.True(LaunchPlan.WantsAnother(Quick with { Launches = 4 }, QuickJob.FewestLaunches, together, inRounds: true));
        // Runtimes that did not move together: about ±29% in rounds (worked out separately), so the fourth round runs.
        double[][] apart = [[100, 120, 90], [50, 45, 56], [30, 30, 30]];
        Assert.True(LaunchPlan.WantsAnother(Quick, QuickJob.FewestLaunches, apart, inRounds: true));
    }

    [Fact]
    public void A_case_under_a_nanosecond_on_every_runtime_stops_after_its_first_round()
    {
        // The JIT removed the work on every runtime: one round, whether the runtimes took turns or not.
        double[][] nothing = [[0.013], [0.0], [0.41]];
        Assert.False(LaunchPlan.WantsAnother(Quick, 1, nothing));
        Assert.False(LaunchPlan.WantsAnother(Quick, 1, nothing, inRounds: true));
        Assert.False(LaunchPlan.WantsAnother(Quick, 1, [[0.2]]));
        // One runtime that measured something keeps the case going (its ratios to the others mean something), as does
        // a mean of exactly a nanosecond, a request that names its launches, and the first round itself.
        Assert.True(LaunchPlan.WantsAnother(Quick, 1, [[0.013], [354.0], [0.41]]));
        Assert.True(LaunchPlan.WantsAnother(Quick, 1, [[ResultBuilder.NothingMeasuredBelowNs]]));
        Assert.True(LaunchPlan.WantsAnother(Quick with { Launches = 4 }, 1, nothing));
        Assert.True(LaunchPlan.WantsAnother(Quick, 0, [[], [], []]));
        // A later launch above a nanosecond: not every launch measured nothing, so the plan judges the spread as usual.
        Assert.True(LaunchPlan.WantsAnother(Quick, 2, [[0.4, 1.6]]));
        // The same judgement alone, for a method of a class in shared rounds (SharedRounds); a case with no launch at all measured nothing yet.
        Assert.True(LaunchPlan.MeasuredNothing(Quick, 1, nothing));
        Assert.False(LaunchPlan.MeasuredNothing(Quick, 1, []));
        Assert.False(LaunchPlan.MeasuredNothing(Quick with { Mode = BenchmarkMode.Full }, 1, nothing));
    }

    [Fact]
    public void Launches_the_request_names_are_run_exactly_and_other_modes_never_add_any()
    {
        Assert.False(LaunchPlan.WantsAnother(Quick with { Launches = 4 }, 4, [Spread]));
        Assert.True(LaunchPlan.WantsAnother(Quick with { Launches = 5 }, 4, [Close]));
        Assert.False(LaunchPlan.WantsAnother(Quick with { Mode = BenchmarkMode.Full }, 1, [Spread]));
        Assert.False(LaunchPlan.WantsAnother(Quick with { Mode = BenchmarkMode.Full, Launches = 3 }, 3, [Spread]));
    }

    [Fact]
    public void Time_left_is_the_mean_seconds_of_the_launches_run_times_the_launches_still_planned()
    {
        // Four launches took 10 s together: 2.5 s each, and six are still planned.
        Assert.Equal(TimeSpan.FromSeconds(15), LaunchPlan.TimeLeft(10, 4, 6));
        Assert.Equal(TimeSpan.Zero, LaunchPlan.TimeLeft(10, 4, 0));
        // Nothing has run: nothing to estimate from.
        Assert.Null(LaunchPlan.TimeLeft(0, 0, 8));
    }

    [Fact]
    public void A_progress_line_says_about_how_long_is_left_in_whole_seconds_rounded_up()
    {
        var launch = new RunProgress("measure", TimeSpan.FromSeconds(4.2), "starting", "net9.0", 1, 2, "Sum", Launch: 2, LaunchCount: 4, Left: TimeSpan.FromSeconds(11.2));
        var round = new RunProgress("round", TimeSpan.FromSeconds(9), "round 1 done", Left: TimeSpan.FromSeconds(0.3));

        Assert.Equal("[   4.2s] net9.0 case 1/2 launch 2/4 Sum starting, about 12 s left", launch.ToString());
        Assert.Equal("[   9.0s] round 1 done, about 1 s left", round.ToString());
        Assert.Equal("[   4.2s] net9.0 case 1/2 launch 2/4 Sum starting", (launch with { Left = null }).ToString());
    }
}
