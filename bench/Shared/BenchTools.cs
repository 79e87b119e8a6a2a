using System.Globalization;
using PerfLab.Course;
using PerfLab.Processes;

namespace PerfLab.Bench;

/// <summary>A script's command line: <c>[--reps N] [--FLAG ...] [--OPTION VALUE ...] [--out FILE.md]</c>.</summary>
/// <param name="Repetitions">How many times each measurement is repeated.</param>
/// <param name="OutPath">Where the Markdown report also goes, if anywhere.</param>
/// <param name="Flags">The script's own switches that were given, e.g. --skip-honesty.</param>
/// <param name="Values">The script's own options that take a value and were given, by option, e.g. --against: FILE.</param>
public sealed record BenchArguments(int Repetitions, string? OutPath, IReadOnlySet<string> Flags, IReadOnlyDictionary<string, string> Values);

/// <summary>How a child process ended.</summary>
/// <param name="Seconds">Wall time.</param>
/// <param name="StandardOutput">What it wrote to stdout.</param>
/// <param name="StandardError">What it wrote to stderr.</param>
public sealed record RunResult(double Seconds, string StandardOutput, string StandardError)
{
    /// <summary>Both streams, stdout first.</summary>
    public string Output => StandardOutput + StandardError;
}

/// <summary>The scaffolding every bench script needs.</summary>
public static class BenchTools
{
    /// <summary>Parses the common arguments; prints the usage and returns null on anything else.</summary>
    /// <param name="args">The script's arguments.</param>
    /// <param name="script">The script's path from the repository root, for the usage line.</param>
    /// <param name="defaultRepetitions">Repetitions without --reps.</param>
    /// <param name="flags">The script's own switches, e.g. --skip-honesty, and options that take a value, written with it: "--against FILE".</param>
    public static BenchArguments? ParseArguments(string[] args, string script, int defaultRepetitions, params string[] flags)
    {
        ArgumentNullException.ThrowIfNull(args);
        var repetitions = defaultRepetitions;
        string? outPath = null;
        var given = new HashSet<string>(StringComparer.Ordinal);
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        var valueOptions = flags.Where(f => f.Contains(' ', StringComparison.Ordinal)).Select(f => f[..f.IndexOf(' ', StringComparison.Ordinal)]).ToHashSet(StringComparer.Ordinal);
        for (var i = 0; i < args.Length; i++)
        {
            if (args[i] == "--reps" && i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n > 0)
            {
                repetitions = n;
                i++;
            }
            else if (args[i] == "--out" && i + 1 < args.Length)
            {
                outPath = args[++i];
            }
            else if (valueOptions.Contains(args[i]) && i + 1 < args.Length)
            {
                values[args[i]] = args[++i];
            }
            else if (flags.Contains(args[i]) && !valueOptions.Contains(args[i]))
            {
                given.Add(args[i]);
            }
            else
            {
                var flagText = string.Concat(flags.Select(f => $" [{f}]"));
                Console.Error.WriteLine($"unexpected argument '{args[i]}'; usage: dotnet run {script} -- [--reps N]{flagText} [--out FILE.md]");
                return null;
            }
        }

        return new BenchArguments(repetitions, outPath, given, values);
    }

    /// <summary>
    /// The other checkout a script compares this build with (<c>--other WORKTREE</c>, a required option of
    /// <paramref name="options"/>); null, with a message, when it is missing or holds no helpers/ folder.
    /// </summary>
    /// <param name="options">The parsed arguments.</param>
    /// <param name="script">The script's path from the repository root, for the message.</param>
    public static string? OtherCheckout(BenchArguments options, string script)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.Values.TryGetValue("--other", out var other) && Directory.Exists(Path.Combine(other, "helpers")))
        {
            return Path.GetFullPath(other);
        }

        Console.Error.WriteLine($"{script}: --other WORKTREE is required: another checkout of this repository (its helpers/ folder must exist) to compare with.");
        return null;
    }

    /// <summary>The 1-minute load average, as a report shows it; "?" where the OS does not tell it.</summary>
    public static string LoadAverage() =>
        PerfLab.Results.MachineDescription.LoadAverage() is [var minute, ..] ? minute.ToString("F2", CultureInfo.InvariantCulture) : "?";

    /// <summary>The repository root: the folder holding PerfLab.slnx, at or above the current folder.</summary>
    public static string FindRepo() =>
        CourseRepository.Find(Environment.CurrentDirectory) ?? throw new InvalidOperationException("Run this from inside the repository.");

    /// <summary>Builds the `perflab` command in <paramref name="configuration"/> and returns its assembly, to run as `dotnet PATH ...`.</summary>
    /// <param name="repo">The repository root.</param>
    /// <param name="configuration">Debug or Release.</param>
    public static string BuildCli(string repo, string configuration)
    {
        Run("dotnet", ["build", CourseRepository.PathOf(CourseRepository.CliProject, repo), "-c", configuration, "-v", "q", "--nologo"], repo, null, mustSucceed: true);
        return CourseRepository.PathOf(CourseRepository.CliAssembly(configuration), repo);
    }

    /// <summary>A progress line on stderr, with the time.</summary>
    public static void Log(string message) => Console.Error.WriteLine($"[{DateTime.Now:HH:mm:ss}] {message}");

    /// <summary>Runs a program (arguments never go through a shell) and times it; its tree is killed after <paramref name="timeout"/> (default 20 minutes).</summary>
    /// <param name="file">The program.</param>
    /// <param name="arguments">Its arguments.</param>
    /// <param name="directory">Its working folder; null: the current one.</param>
    /// <param name="environment">Variables added to the inherited environment.</param>
    /// <param name="mustSucceed">Throw when it exits non-zero.</param>
    /// <param name="timeout">How long it may take; null: 20 minutes.</param>
    public static RunResult Run(string file, IEnumerable<string> arguments, string? directory = null, IReadOnlyDictionary<string, string>? environment = null, bool mustSucceed = true, TimeSpan? timeout = null)
    {
        // The product's one way to run a child (PerfLab.Processes.ChildProcess): argument list, tree killed on timeout.
        var argumentList = arguments.ToArray();
        var command = $"{file} {string.Join(' ', argumentList)}";
        var limit = timeout ?? TimeSpan.FromMinutes(20);
        var ended = ChildProcess.RunAsync(file, argumentList, environment?.ToDictionary(e => e.Key, e => (string?)e.Value), directory, limit, onOutputLine: null, CancellationToken.None)
            .GetAwaiter().GetResult();
        if (ended.TimedOut)
        {
            throw new TimeoutException($"{command} took over {limit.TotalMinutes:F0} minutes; killed with its tree");
        }

        var result = new RunResult(ended.Elapsed.TotalSeconds, ended.StandardOutput, ended.StandardError);
        if (mustSucceed && ended.ExitCode != 0)
        {
            throw new InvalidOperationException($"{command} exited {ended.ExitCode}:\n{result.Output}");
        }

        return result;
    }

    /// <summary>The median (the mean of the middle two for an even count); NaN when empty.</summary>
    public static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length == 0 ? double.NaN
            : sorted.Length % 2 == 1 ? sorted[sorted.Length / 2]
            : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
