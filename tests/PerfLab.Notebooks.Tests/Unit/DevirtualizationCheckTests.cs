using PerfLab.Contract;
using PerfLab.Notebooks.Exercises;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>The jit/03 exercise's check in quick mode: the reader's own run decides, not the post.</summary>
public class DevirtualizationCheckTests
{
    private static PerfLab.Results.BenchmarkRun Run(double foreach9, double for9, double foreach10, double for10) =>
        Fake.Run(
            BenchmarkMode.Quick,
            Fake.Outcome("net9.0", "9.0.20", Fake.Case("ByEnumerator", foreach9, 32), Fake.Case("ByPosition", for9, 0)),
            Fake.Outcome("net10.0", "10.0.12", Fake.Case("ByEnumerator", foreach10, 32), Fake.Case("ByPosition", for10, 0)));

    [Fact]
    public void The_reading_of_the_run_passes_and_the_other_fails()
    {
        var run = Run(foreach9: 1100, for9: 2250, foreach10: 900, for10: 600);

        Assert.True(Devirtualization.CheckFasterLoop(run, "foreach", "for").Solved);
        var wrong = Devirtualization.CheckFasterLoop(run, "foreach", "foreach");
        Assert.False(wrong.Solved);
        Assert.Contains("on net10.0 the faster loop in your run was for, not foreach", wrong.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_machine_that_disagrees_with_the_post_is_still_read_as_it_is()
    {
        var run = Run(foreach9: 2000, for9: 1500, foreach10: 900, for10: 600);

        Assert.True(Devirtualization.CheckFasterLoop(run, "for", "for").Solved);
        Assert.False(Devirtualization.CheckFasterLoop(run, "foreach", "for").Solved);
    }
}
