using System.CommandLine;
using System.Globalization;
using PerfLab.Runtimes;

namespace PerfLab.Cli;

/// <summary>
/// The options several commands take, each defined once: a command words what the option means to it, while the
/// name, aliases, parsing, choices and defaults stay the same everywhere.
/// </summary>
internal static class SharedOptions
{
    /// <summary>What --runtimes means to the commands that show runtimes side by side (asm, regex).</summary>
    public const string ComparedRuntimes = "Runtimes, oldest first; each is compared with the one before.";

    /// <summary>--runtimes / -r: pinned monikers in order, every pinned runtime by default.</summary>
    /// <param name="purpose">What the list means to the command, one sentence; the known monikers follow.</param>
    public static Option<string[]> Runtimes(string purpose) => new("--runtimes", "-r")
    {
        Description = $"{purpose} Known: {string.Join(", ", RuntimeCatalog.Monikers)}.",
        AllowMultipleArgumentsPerToken = true,
        DefaultValueFactory = _ => RuntimeCatalog.DefaultMonikers.ToArray(),
    };

    /// <summary>--mode / -m: one of the modes, or nothing (the command's rule picks one: ModeChoice.Resolve).</summary>
    /// <param name="subject">What the mode applies to, e.g. "Benchmark mode of every cell".</param>
    /// <param name="defaultHelp">What happens without the option; default: the course's rule.</param>
    public static Option<string?> Mode(string subject, string? defaultHelp = null)
    {
        var mode = new Option<string?>("--mode", "-m")
        {
            Description = $"{subject}: {ModeChoice.Choices}. {defaultHelp ?? ModeChoice.DefaultHelp}",
        };
        mode.AcceptOnlyFromAmong([.. ModeChoice.Names]);
        return mode;
    }

    /// <summary>--env / -e: NAME=VALUE for the benchmark processes, repeatable (parsed by BenchmarkRequest.ParseEnvironment).</summary>
    /// <param name="description">What it is for, with an example.</param>
    public static Option<string[]> Environment(string description) => new("--env", "-e")
    {
        Description = description,
        HelpName = "NAME=VALUE",
    };

    /// <summary>An output file the command also writes when asked (--json, --html); OutputFiles writes it.</summary>
    /// <param name="name">The option, e.g. --html.</param>
    /// <param name="description">What the file holds.</param>
    public static Option<string?> OutputFile(string name, string description) => new(name)
    {
        Description = description,
        HelpName = "OUT",
    };

    /// <summary>--launches: host processes per case and runtime, a whole number of at least 1; without it the mode's.</summary>
    /// <param name="description">What more processes buy the command, and its default.</param>
    public static Option<int?> Launches(string description) => new("--launches")
    {
        Description = description,
        HelpName = "N",
        CustomParser = result =>
        {
            var text = result.Tokens.Single().Value;
            if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var launches) && launches >= 1)
            {
                return launches;
            }

            result.AddError($"--launches '{text}' is not a whole number of processes of at least 1.");
            return null;
        },
    };

    /// <summary>A positive number of seconds, or one error naming the option.</summary>
    /// <param name="name">The option, e.g. --timeout.</param>
    /// <param name="description">What the limit stops, and its default.</param>
    public static Option<TimeSpan?> Seconds(string name, string description) => new(name)
    {
        Description = description,
        HelpName = "SECONDS",
        CustomParser = result =>
        {
            var text = result.Tokens.Single().Value;
            if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds) && seconds > 0)
            {
                return TimeSpan.FromSeconds(seconds);
            }

            result.AddError($"{name} '{text}' is not a positive number of seconds.");
            return null;
        },
    };
}
