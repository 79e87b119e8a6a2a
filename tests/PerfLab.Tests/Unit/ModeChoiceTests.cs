using PerfLab.Contract;

namespace PerfLab.Tests.Unit;

/// <summary>The benchmark mode's one home: names, parsing, meaning and default timeouts.</summary>
public class ModeChoiceTests
{
    [Theory]
    [InlineData("smoke", BenchmarkMode.Smoke)]
    [InlineData(" QUICK ", BenchmarkMode.Quick)]
    [InlineData("Full", BenchmarkMode.Full)]
    public void Any_case_parses(string text, BenchmarkMode mode)
    {
        Assert.Equal(mode, ModeChoice.Parse(text, "--mode"));
    }

    [Theory]
    [InlineData(ModeChoice.Variable, "PERFLAB_MODE=quick")]
    [InlineData("--mode", "--mode quick")]
    [InlineData("mode", "mode: \"quick\"")]
    public void A_bad_mode_names_where_it_came_from_and_what_to_type(string where, string example)
    {
        var ex = Assert.Throws<PerfLabException>(() => ModeChoice.Parse("fast", where));

        Assert.Equal($"{where} is 'fast', which is not a benchmark mode.", ex.Message);
        Assert.Equal($"Use smoke (proves it runs), quick (a short job) or full (BenchmarkDotNet's default job), e.g. {example}.", ex.Fix);
    }

    [Fact]
    public void Names_round_trip_and_are_what_the_cli_accepts()
    {
        Assert.Equal(["smoke", "quick", "full"], ModeChoice.Names);
        foreach (var mode in ModeChoice.All)
        {
            Assert.Equal(mode, ModeChoice.Parse(ModeChoice.Name(mode), "--mode"));
        }
    }

    [Theory]
    [InlineData(BenchmarkMode.Smoke, "Smoke mode")]
    [InlineData(BenchmarkMode.Full, "Full mode")]
    public void A_heading_is_the_name_capitalized(BenchmarkMode mode, string heading)
    {
        Assert.Equal(heading, ModeChoice.Heading(mode));
    }

    [Fact]
    public void An_explicit_mode_wins_and_says_so()
    {
        var choice = ModeChoice.Resolve("SMOKE");

        Assert.Equal(new ModeChoice(BenchmarkMode.Smoke, "--mode"), choice);
        Assert.Equal("smoke (--mode)", choice.ToString());
    }

    [Theory]
    [InlineData(null, null, BenchmarkMode.Quick, "default")]
    [InlineData(null, " ", BenchmarkMode.Quick, "default")]
    [InlineData(null, "smoke", BenchmarkMode.Smoke, ModeChoice.Variable)]
    [InlineData("full", "smoke", BenchmarkMode.Full, "--mode")]
    public void The_option_wins_then_PERFLAB_MODE_then_quick(string? option, string? variable, BenchmarkMode mode, string origin)
    {
        Assert.Equal(new ModeChoice(mode, origin), ModeChoice.Resolve(option, variable));
    }

    [Fact]
    public void An_invalid_PERFLAB_MODE_is_the_one_message_of_every_command()
    {
        var ex = Assert.Throws<PerfLabException>(() => ModeChoice.Resolve(null, "fast"));

        Assert.Equal("PERFLAB_MODE is 'fast', which is not a benchmark mode.", ex.Message);
        Assert.Equal("Use smoke (proves it runs), quick (a short job) or full (BenchmarkDotNet's default job), e.g. PERFLAB_MODE=quick.", ex.Fix);
    }

    [Fact]
    public void A_job_with_its_own_mode_keeps_it_unless_the_option_is_given()
    {
        Assert.Equal(new ModeChoice(BenchmarkMode.Full, "perflab reference's default"), ModeChoice.Resolve(null, BenchmarkMode.Full, "perflab reference"));
        Assert.Equal(new ModeChoice(BenchmarkMode.Smoke, "--mode"), ModeChoice.Resolve("smoke", BenchmarkMode.Full, "perflab reference"));
    }

    [Fact]
    public void A_runs_line_names_the_mode_where_it_came_from_and_what_it_means()
    {
        Assert.Equal(
            "Mode: smoke (PERFLAB_MODE). Numbers are meaningless: this run only proves the cells work.",
            new ModeChoice(BenchmarkMode.Smoke, ModeChoice.Variable).Line);
    }

    [Fact]
    public void Quick_modes_meaning_comes_from_the_hosts_job()
    {
        Assert.Contains($"{QuickJob.Launches} processes per runtime ({QuickJob.FewestLaunches} when its runtimes already agree, up to {QuickJob.MaxLaunches} when they disagree, 1 when it measures under a nanosecond), each {QuickJob.IterationCount} iterations of {QuickJob.IterationMilliseconds} ms", ModeChoice.Meaning(BenchmarkMode.Quick), StringComparison.Ordinal);
    }

    [Fact]
    public void Only_quick_mode_measures_a_case_in_several_launches()
    {
        Assert.Equal([1, QuickJob.Launches, 1], ModeChoice.All.Select(ModeChoice.Launches));
    }

    [Fact]
    public void Default_timeouts_are_said_in_seconds_per_mode()
    {
        Assert.Equal("smoke 120, quick 180, full 1800", ModeChoice.InSeconds(ModeChoice.CaseTimeout));
        Assert.Equal("smoke 900, quick 3600, full 43200", ModeChoice.InSeconds(ModeChoice.RunTimeout));
        Assert.Equal(ModeChoice.CaseTimeout(BenchmarkMode.Full), new Benchmarks.BenchmarkRequest { Source = "", SourcePath = "x.cs", Mode = BenchmarkMode.Full }.EffectiveCaseTimeout);
    }
}
