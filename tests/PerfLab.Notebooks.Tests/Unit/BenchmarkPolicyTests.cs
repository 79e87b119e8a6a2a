using PerfLab.Benchmarks;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>What a replaying policy does with a call it has no recorded run for: the reference job's --only-missing measures it, the site never measures.</summary>
public class BenchmarkPolicyTests
{
    private static readonly BenchmarkRequest Request = new() { Source = "public class Sums { }", SourcePath = "cell 2" };

    [Fact]
    public void A_call_without_a_recorded_run_is_measured_where_the_policy_says_so()
    {
        var onlyMissing = new BenchmarkPolicy { Replay = _ => null, MeasureUnanswered = true };

        Assert.Null(onlyMissing.Replayed(Request));
    }

    [Fact]
    public void A_call_without_a_recorded_run_is_an_error_where_nothing_may_be_measured()
    {
        var site = new BenchmarkPolicy { Replay = _ => null };

        var error = Assert.Throws<PerfLabException>(() => site.Replayed(Request));
        Assert.Contains("No recorded run answers this benchmark call", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_policy_without_a_replay_measures_every_call() => Assert.Null(BenchmarkPolicy.Measure.Replayed(Request));
}
