// Part of the contract between PerfLab and PerfLab.Host (compiled into both): the numbers of each mode's
// job, which the host runs (Jobs.cs, CaseRunner.cs) and PerfLab describes (ModeChoice.Meaning), so the
// description never disagrees with the job.
namespace PerfLab.Contract;

/// <summary>The numbers of quick mode's job.</summary>
public static class QuickJob
{
    /// <summary>
    /// Host processes per case and runtime. Iterations inside one process do not see what changes from one process
    /// to the next (code layout, tiering and PGO decisions); the spread of the launches' means does, and gives each
    /// ratio its interval. The parent runs them (the host runs one launch).
    /// </summary>
    public const int Launches = 4;

    /// <summary>
    /// The fewest launches a case gets in quick mode: after this many rounds, a case whose runtimes take turns (three or
    /// more of them, so its interval in rounds has enough degrees of freedom) stops short of <see cref="Launches"/> when
    /// that interval is already within ±<see cref="TargetHalfWidth"/> (PerfLab's LaunchPlan): a fourth round would cost
    /// a round's seconds and narrow nothing the reader needs.
    /// </summary>
    public const int FewestLaunches = 3;

    /// <summary>
    /// The most launches a case gets in quick mode: after <see cref="Launches"/>, the parent runs another round on every
    /// runtime while a runtime's launch means spread so far that a ratio's interval would be wider than
    /// ±<see cref="TargetHalfWidth"/>, and spread as they are would be within it by this many (PerfLab's LaunchPlan).
    /// </summary>
    public const int MaxLaunches = 6;

    /// <summary>The half-width of a ratio's 95% interval, as a share of the ratio, that quick mode aims for (see <see cref="MaxLaunches"/>).</summary>
    public const double TargetHalfWidth = 0.15;

    /// <summary>Warm-up iterations of each launch, after tiering has settled.</summary>
    public const int WarmupCount = 2;

    /// <summary>Measured iterations of each launch.</summary>
    public const int IterationCount = 5;

    /// <summary>
    /// Warm-up iterations of a quick run of one launch, which reads bytes per call (the notebook tests' quick runs, the
    /// exercise cells): the longer single-process job, started with the runtime's own call-counting delay and driven with
    /// the drive's longer pauses. Its bytes come from the last, memory-measuring iteration, which must run after every
    /// library method's Tier1 code has landed: with the launches' shorter job and drive, a loaded machine let it run
    /// before, and bytes showed where the steady state allocates none (docs/performance.md, "Is quick mode honest?").
    /// </summary>
    public const int SingleLaunchWarmupCount = 3;

    /// <summary>Measured iterations of a quick run of one launch (see <see cref="SingleLaunchWarmupCount"/>).</summary>
    public const int SingleLaunchIterationCount = 7;

    /// <summary>Length of one iteration: short enough for seconds per case, long enough for Tier1 code.</summary>
    public const int IterationMilliseconds = 50;

    /// <summary>
    /// The fewest iterations of BenchmarkDotNet's overhead stage (an empty call timed as often as the workload, and
    /// subtracted from it), which stops once its mean is known within 5% or at <see cref="OverheadMaxIterationCount"/>.
    /// BenchmarkDotNet's own bounds, 15 and 20, made the stage cost more than the measured iterations: up to 1.2 s of a
    /// launch for a nanosecond-sized case on a busy machine, where 5% is seldom reached.
    /// </summary>
    public const int OverheadMinIterationCount = IterationCount;

    /// <summary>The most iterations of the overhead stage (see <see cref="OverheadMinIterationCount"/>).</summary>
    public const int OverheadMaxIterationCount = 2 * IterationCount;

    /// <summary>
    /// The runtime's call-counting delay, in milliseconds, that quick mode's hosts of a case with several launches start
    /// with (<see cref="CallCountingDelayVariable"/>, unless the run's own environment sets it) instead of the runtime's
    /// 100 ms. Call counting, and so promotion to the instrumented tier and Tier1, waits until this long has passed
    /// without new Tier0 code, a wait the runtime extends while startup-like activity lasts. A short delay lets the
    /// tiering drive settle in a few 60-ms pauses instead of 200-ms ones. No delay at all would let promotion start during
    /// the host's own start-up, so the instrumented tier would profile library code the host shares with the benchmark
    /// while the host calls it, and quick ratios of such code stray from full mode's (docs/performance.md, "A short
    /// call-counting delay", measures both).
    /// </summary>
    public const int CallCountingDelayMs = 30;

    /// <summary>The runtime setting that holds the call-counting delay (<see cref="CallCountingDelayMs"/>); the runtime reads its value as hexadecimal.</summary>
    public const string CallCountingDelayVariable = "DOTNET_TC_CallCountingDelayMs";

    /// <summary>The same setting under the prefix the runtime still reads after <c>DOTNET_</c>.</summary>
    public const string LegacyCallCountingDelayVariable = "COMPlus_TC_CallCountingDelayMs";

    /// <summary>A delay in milliseconds written as the runtime reads <see cref="CallCountingDelayVariable"/>: hexadecimal ("1E" is 30 ms, "100" is 256 ms).</summary>
    public static string CallCountingDelaySetting(int milliseconds) =>
        milliseconds.ToString("X", System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The delay in milliseconds that a <see cref="CallCountingDelayVariable"/> value sets, read as the runtime reads it (hexadecimal, "0x" allowed); null when it is not such a number.</summary>
    public static int? CallCountingDelayOf(string? setting)
    {
        var digits = setting?.Trim();
        if (digits is not null && digits.StartsWith("0x", StringComparison.OrdinalIgnoreCase))
        {
            digits = digits[2..];
        }

        return int.TryParse(digits, System.Globalization.NumberStyles.AllowHexSpecifier, System.Globalization.CultureInfo.InvariantCulture, out var milliseconds) && milliseconds >= 0
            ? milliseconds
            : null;
    }

    /// <summary>The longest the case is driven before measuring, waiting for tiered compilation to settle.</summary>
    public const int TieringLimitSeconds = 5;
}
