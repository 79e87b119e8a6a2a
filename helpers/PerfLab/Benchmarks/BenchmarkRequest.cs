using System.Text;
using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>What to run: C# source holding BenchmarkDotNet classes, and how to run it.</summary>
public sealed record BenchmarkRequest
{
    /// <summary>The C# source.</summary>
    public required string Source { get; init; }

    /// <summary>The path compiler errors point at (a file, or a notebook cell's name).</summary>
    public required string SourcePath { get; init; }

    /// <summary>Runtimes in the order to run them; the first is the baseline of runtime ratios.</summary>
    public IReadOnlyList<PinnedRuntime> Runtimes { get; init; } = RuntimeCatalog.Default;

    /// <summary>smoke, quick (default) or full.</summary>
    public BenchmarkMode Mode { get; init; } = ModeChoice.Default;

    /// <summary>Glob patterns over Namespace.Class.Method; empty runs everything.</summary>
    public IReadOnlyList<string> Filter { get; init; } = [];

    /// <summary>Environment variables set on every benchmark process (e.g. DOTNET_TieredPGO=0).</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>Longest time one case's process may take; null uses the mode's default.</summary>
    public TimeSpan? CaseTimeout { get; init; }

    /// <summary>Longest time the whole run may take; null uses the mode's default.</summary>
    public TimeSpan? RunTimeout { get; init; }

    /// <summary>Run even when a cached result exists.</summary>
    public bool Force { get; init; }

    /// <summary>
    /// Host processes per case and runtime; null uses the mode's (<see cref="ModeChoice.Launches"/>). One is enough for
    /// a run that reads only bytes per call, which do not change from one process to the next as times do; its ratios'
    /// intervals then come from one process's iterations (and say so).
    /// </summary>
    public int? Launches { get; init; }

    /// <summary>
    /// The run is read for bytes per call only, not for times: it shares the measuring lock with smoke runs and
    /// listings instead of holding it alone (other work on the machine changes how long a call takes, not what it
    /// allocates), and its times, taken beside that work, are not cached for a later run to show.
    /// </summary>
    public bool ReadsOnlyBytes { get; init; }

    /// <summary>Whether the run holds the measuring lock alone: a run that reads times (quick or full mode, not <see cref="ReadsOnlyBytes"/>).</summary>
    public bool HoldsMeasuringLockAlone => Mode != BenchmarkMode.Smoke && !ReadsOnlyBytes;

    /// <summary>The launches per case and runtime in effect.</summary>
    public int EffectiveLaunches => Launches ?? ModeChoice.Launches(Mode);

    /// <summary>The case timeout in effect.</summary>
    public TimeSpan EffectiveCaseTimeout => CaseTimeout ?? ModeChoice.CaseTimeout(Mode);

    /// <summary>The run timeout in effect.</summary>
    public TimeSpan EffectiveRunTimeout => RunTimeout ?? ModeChoice.RunTimeout(Mode);

    /// <summary>A request for the C# file at <paramref name="path"/>.</summary>
    /// <param name="path">The file.</param>
    /// <exception cref="PerfLabException">The file does not exist or cannot be read.</exception>
    public static BenchmarkRequest FromFile(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var full = Path.GetFullPath(path);
        if (Directory.Exists(full))
        {
            throw new PerfLabException($"{path} is a folder, not a C# file.", "Pass the path of a .cs file that holds a BenchmarkDotNet class.");
        }

        if (!File.Exists(full))
        {
            throw new PerfLabException($"File not found: {path}.", "Check the path (relative paths start from the current folder: " + System.Environment.CurrentDirectory + ").");
        }

        try
        {
            return new BenchmarkRequest { Source = File.ReadAllText(full, Encoding.UTF8), SourcePath = full };
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PerfLabException($"Cannot read {path}: {ex.Message}", "Check the file's permissions.", inner: ex);
        }
    }

    /// <summary>
    /// What this request measures, as a hash: the source, the filter, the environment and the runtimes, but not
    /// the mode, the timeouts or the machine. The reference file keys each run by it, so a changed benchmark
    /// no longer finds the numbers its old code produced (docs/results-schema.md).
    /// </summary>
    public string ContentKey() => CacheKey.Hash(
        ("source", CacheKey.Source(Source)),
        ("filter", CacheKey.List(Filter)),
        ("environment", CacheKey.Environment(Environment)),
        ("runtimes", CacheKey.List(Runtimes.Select(r => r.Moniker))));

    /// <summary>Checks the parts a reader types by hand.</summary>
    /// <exception cref="PerfLabException">Something is wrong; the message says what.</exception>
    public void Validate()
    {
        if (Runtimes.Count == 0)
        {
            throw new PerfLabException("No runtime to run on.", $"Name at least one of {string.Join(", ", RuntimeCatalog.Monikers)}.");
        }

        foreach (var name in Environment.Keys)
        {
            if (string.IsNullOrWhiteSpace(name) || name.Contains('=', StringComparison.Ordinal) || name.Any(char.IsWhiteSpace))
            {
                throw new PerfLabException($"'{name}' is not a valid environment variable name.", "Use NAME=VALUE, e.g. --env DOTNET_TieredPGO=0.");
            }
        }

        if (EffectiveCaseTimeout <= TimeSpan.Zero || EffectiveRunTimeout <= TimeSpan.Zero)
        {
            throw new PerfLabException("Timeouts must be positive.", "Give a number of seconds greater than zero.");
        }

        if (EffectiveLaunches < 1)
        {
            throw new PerfLabException($"{EffectiveLaunches} launches per case: a case needs at least one.", "Ask for 1 or more (launches: 1 in Lab.RunAsync), or leave it out for the mode's own number.");
        }
    }

    /// <summary>Parses NAME=VALUE pairs.</summary>
    /// <param name="pairs">The pairs.</param>
    /// <exception cref="PerfLabException">A pair has no '=' or no name.</exception>
    public static IReadOnlyDictionary<string, string> ParseEnvironment(IEnumerable<string> pairs)
    {
        ArgumentNullException.ThrowIfNull(pairs);
        var result = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var pair in pairs)
        {
            var equals = pair.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0)
            {
                throw new PerfLabException($"'{pair}' is not NAME=VALUE.", "Write it as --env NAME=VALUE, e.g. --env DOTNET_gcServer=1.");
            }

            result[pair[..equals]] = pair[(equals + 1)..];
        }

        return result;
    }
}
