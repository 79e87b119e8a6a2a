using System.Globalization;
using PerfLab.Contract;

namespace PerfLab;

/// <summary>
/// The benchmark mode in effect for a run and where it came from: --mode, else the PERFLAB_MODE
/// environment variable (how CI and Jupyter clients pick smoke mode without editing a notebook), else
/// quick. The one home of the mode: its names as readers type them, parsing, what it means for the
/// numbers (from the host's own job constants), the default timeouts, and the resolution. A run
/// resolves it once and passes it down.
/// </summary>
/// <param name="Mode">The mode.</param>
/// <param name="Origin">Where it came from: <see cref="OptionOrigin"/>, <see cref="Variable"/> or <see cref="DefaultOrigin"/>.</param>
public sealed record ModeChoice(BenchmarkMode Mode, string Origin)
{
    /// <summary>The environment variable that sets the mode when no --mode is given.</summary>
    public const string Variable = "PERFLAB_MODE";

    /// <summary>The origin of a mode given explicitly (perflab's option, or a caller's own choice).</summary>
    public const string OptionOrigin = "--mode";

    /// <summary>The origin of the default mode.</summary>
    public const string DefaultOrigin = "default";

    /// <summary>The mode when nothing chooses one.</summary>
    public const BenchmarkMode Default = BenchmarkMode.Quick;

    /// <summary>Every mode, fastest first.</summary>
    public static IReadOnlyList<BenchmarkMode> All { get; } = Enum.GetValues<BenchmarkMode>();

    /// <summary>The names readers type (smoke, quick, full): for option validation and help text.</summary>
    public static IReadOnlyList<string> Names { get; } = All.Select(Name).ToArray();

    /// <summary>"smoke (proves it runs), quick (a short job), full (BenchmarkDotNet's default job)".</summary>
    public static string Choices { get; } = string.Join(", ", All.Select(m => $"{Name(m)} ({Summary(m)})"));

    /// <summary>An explicit choice, e.g. a --mode option or a job that sets its own mode.</summary>
    /// <param name="mode">The mode.</param>
    public static ModeChoice Given(BenchmarkMode mode) => new(mode, OptionOrigin);

    /// <summary>What --mode's help says of the default: "Default: PERFLAB_MODE, else quick."</summary>
    public static string DefaultHelp { get; } = $"Default: {Variable}, else {Name(Default)}.";

    /// <summary>
    /// The mode of a run, the one rule every command and kernel follows: <paramref name="option"/> when given
    /// (parsed as --mode), else PERFLAB_MODE when set, else <see cref="Default"/>.
    /// </summary>
    /// <param name="option">The --mode text, or null when none was given (a kernel has none).</param>
    /// <exception cref="PerfLabException">The option or PERFLAB_MODE is not a mode.</exception>
    public static ModeChoice Resolve(string? option) => Resolve(option, Environment.GetEnvironmentVariable(Variable));

    /// <summary><see cref="Resolve(string?)"/> with PERFLAB_MODE's value given rather than read.</summary>
    /// <param name="option">The --mode text, or null when none was given.</param>
    /// <param name="variable">PERFLAB_MODE's value; null, empty or blank when unset.</param>
    /// <exception cref="PerfLabException">The option or the variable is not a mode.</exception>
    public static ModeChoice Resolve(string? option, string? variable)
    {
        if (option is not null)
        {
            return new ModeChoice(Parse(option, OptionOrigin), OptionOrigin);
        }

        return string.IsNullOrWhiteSpace(variable)
            ? new ModeChoice(Default, DefaultOrigin)
            : new ModeChoice(Parse(variable, Variable), Variable);
    }

    /// <summary>
    /// The mode of a job that exists to produce one mode's numbers (the reference job writes full-mode numbers
    /// for data/reference): <paramref name="option"/> when given, else <paramref name="jobDefault"/>.
    /// PERFLAB_MODE is not read: a variable set for notebooks (smoke in CI) must not quietly turn such a job's
    /// numbers into another mode's.
    /// </summary>
    /// <param name="option">The --mode text, or null when none was given.</param>
    /// <param name="jobDefault">The job's own mode.</param>
    /// <param name="job">The job, as its origin names it: "perflab reference" gives "perflab reference's default".</param>
    /// <exception cref="PerfLabException">The option is not a mode.</exception>
    public static ModeChoice Resolve(string? option, BenchmarkMode jobDefault, string job)
    {
        ArgumentNullException.ThrowIfNull(job);
        return option is not null
            ? new ModeChoice(Parse(option, OptionOrigin), OptionOrigin)
            : new ModeChoice(jobDefault, $"{job}'s default");
    }

    /// <summary>Parses smoke, quick or full (any case, surrounding spaces ignored).</summary>
    /// <param name="text">The text.</param>
    /// <param name="where">Where the text came from, for the message: --mode, PERFLAB_MODE, or a parameter's name.</param>
    /// <exception cref="PerfLabException">Not a mode.</exception>
    public static BenchmarkMode Parse(string text, string where)
    {
        ArgumentNullException.ThrowIfNull(text);
        ArgumentNullException.ThrowIfNull(where);
        foreach (var mode in All)
        {
            if (string.Equals(text.Trim(), Name(mode), StringComparison.OrdinalIgnoreCase))
            {
                return mode;
            }
        }

        var example = where == Variable ? $"{Variable}={Name(Default)}"
            : where.StartsWith('-') ? $"{where} {Name(Default)}"
            : $"{where}: \"{Name(Default)}\"";
        throw new PerfLabException(
            $"{where} is '{text}', which is not a benchmark mode.",
            $"Use {string.Join(", ", All.SkipLast(1).Select(m => $"{Name(m)} ({Summary(m)})"))} or {Name(All[^1])} ({Summary(All[^1])}), e.g. {example}.");
    }

    /// <summary>The lowercase name of a mode, as readers type it.</summary>
    /// <param name="mode">The mode.</param>
    public static string Name(BenchmarkMode mode) => mode switch
    {
        BenchmarkMode.Smoke => "smoke",
        BenchmarkMode.Quick => "quick",
        BenchmarkMode.Full => "full",
        _ => throw new ArgumentOutOfRangeException(nameof(mode), mode, null),
    };

    /// <summary>"Smoke mode", to begin a sentence or a warning with.</summary>
    /// <param name="mode">The mode.</param>
    public static string Heading(BenchmarkMode mode) => char.ToUpperInvariant(Name(mode)[0]) + Name(mode)[1..] + " mode";

    /// <summary>A few words on what a mode is, for help text.</summary>
    /// <param name="mode">The mode.</param>
    public static string Summary(BenchmarkMode mode) => mode switch
    {
        BenchmarkMode.Smoke => "proves it runs",
        BenchmarkMode.Quick => "a short job",
        _ => "BenchmarkDotNet's default job",
    };

    /// <summary>What a mode means for the numbers it produces (setup cell, reports); quick's job from the host's own constants.</summary>
    /// <param name="mode">The mode.</param>
    public static string Meaning(BenchmarkMode mode) => mode switch
    {
        BenchmarkMode.Smoke => "numbers are meaningless: this run only proves the cells work",
        BenchmarkMode.Quick => $"a short job (each case measured in {QuickJob.Launches} processes per runtime ({QuickJob.FewestLaunches} when its runtimes already agree, up to {QuickJob.MaxLaunches} when they disagree, 1 when it measures under a nanosecond), each {QuickJob.IterationCount} iterations of {QuickJob.IterationMilliseconds} ms once tiering has settled; ratios carry a 95% interval across them): good for trends, not for publishing",
        _ => "BenchmarkDotNet's default job: numbers you can publish",
    };

    /// <summary>How many host processes measure each case on each runtime at first: <see cref="QuickJob.Launches"/> in quick mode (which adds more while they disagree: LaunchPlan), else one.</summary>
    /// <param name="mode">The mode.</param>
    public static int Launches(BenchmarkMode mode) => mode == BenchmarkMode.Quick ? QuickJob.Launches : 1;

    /// <summary>How long one case's process may take when the request sets no limit.</summary>
    /// <param name="mode">The mode.</param>
    public static TimeSpan CaseTimeout(BenchmarkMode mode) => mode switch
    {
        BenchmarkMode.Smoke => TimeSpan.FromMinutes(2),
        BenchmarkMode.Quick => TimeSpan.FromMinutes(3),
        _ => TimeSpan.FromMinutes(30),
    };

    /// <summary>How long a whole run may take when the request sets no limit.</summary>
    /// <param name="mode">The mode.</param>
    public static TimeSpan RunTimeout(BenchmarkMode mode) => mode switch
    {
        BenchmarkMode.Smoke => TimeSpan.FromMinutes(15),
        BenchmarkMode.Quick => TimeSpan.FromMinutes(60),
        _ => TimeSpan.FromHours(12),
    };

    /// <summary>A default timeout of every mode in seconds, for help text: "smoke 120, quick 180, full 1800".</summary>
    /// <param name="timeout">Which timeout: <see cref="CaseTimeout"/> or <see cref="RunTimeout"/>.</param>
    public static string InSeconds(Func<BenchmarkMode, TimeSpan> timeout)
    {
        ArgumentNullException.ThrowIfNull(timeout);
        return string.Join(", ", All.Select(m => $"{Name(m)} {timeout(m).TotalSeconds.ToString("0", CultureInfo.InvariantCulture)}"));
    }

    /// <summary>"Mode: smoke (PERFLAB_MODE). Numbers are meaningless: ...": what a run says before it starts.</summary>
    public string Line => $"Mode: {this}. {char.ToUpperInvariant(Meaning(Mode)[0])}{Meaning(Mode)[1..]}.";

    /// <summary>"smoke (PERFLAB_MODE)".</summary>
    public override string ToString() => $"{Name(Mode)} ({Origin})";
}
