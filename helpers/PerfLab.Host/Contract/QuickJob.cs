// Part of the contract between PerfLab and PerfLab.Host (compiled into both): the numbers of each mode's
// job, which the host runs (Jobs.cs, CaseRunner.cs) and PerfLab describes (ModeChoice.Meaning), so the
// description never disagrees with the job.
namespace PerfLab.Contract;

/// <summary>The numbers of quick mode's job.</summary>
public static class QuickJob
{
    /// <summary>Warm-up iterations after tiering has settled.</summary>
    public const int WarmupCount = 3;

    /// <summary>Measured iterations.</summary>
    public const int IterationCount = 7;

    /// <summary>Length of one iteration: short enough for seconds per case, long enough for Tier1 code.</summary>
    public const int IterationMilliseconds = 50;

    /// <summary>The longest the case is driven before measuring, waiting for tiered compilation to settle.</summary>
    public const int TieringLimitSeconds = 5;
}
