using System.Runtime.InteropServices;
using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Results;

/// <summary>
/// The machine a run happened on, as readers compare machines: a reference machine file's (the reference job), a notebook
/// timing's (data/timings) and a room post's (PerfLab.Room), which names the laptop by its nickname. No host name, no user name.
/// </summary>
/// <param name="Name">The name the results file carries, e.g. linux-x64 or a CI leg's name; in a room, the laptop's nickname.</param>
/// <param name="Platform">Runtime identifier, e.g. linux-x64.</param>
/// <param name="Os">The OS description.</param>
/// <param name="Processor">The processor's model name, when the OS tells it.</param>
/// <param name="LogicalCores">Logical cores.</param>
/// <param name="MemoryBytes">Memory the runtime sees.</param>
/// <param name="Sdk">The .NET SDK version.</param>
/// <param name="Runner">The CI runner (GitHub Actions: OS, architecture and image), when run there.</param>
public sealed record MachineDescription(
    string Name,
    string Platform,
    string Os,
    string Processor,
    int LogicalCores,
    long MemoryBytes,
    string Sdk,
    string? Runner)
{
    /// <summary>
    /// The machine in one line, as readers see it: "AMD EPYC, 2 logical cores, " and what the reader needs beside it (a
    /// reference measurement's and the fidelity report's mode, the course site's OS).
    /// </summary>
    /// <param name="detail">What follows the cores.</param>
    /// <param name="processor">The processor to name instead of <see cref="Processor"/>: a run's own (<see cref="RunMachine.Processor"/>),
    /// or every processor a file's runs had.</param>
    public string Describe(string detail, string? processor = null) => Describe(processor ?? Processor, LogicalCores, detail);

    /// <summary>The same line for a machine known only by its processor and cores (the one building the course site).</summary>
    /// <param name="processor">The processor.</param>
    /// <param name="logicalCores">Logical cores.</param>
    /// <param name="detail">What follows the cores.</param>
    public static string Describe(string processor, int logicalCores, string detail) => $"{processor}, {logicalCores} logical cores, {detail}";

    /// <summary>Describes this machine.</summary>
    /// <param name="name">The name to give it.</param>
    /// <param name="sdkFolder">The folder whose SDK is named (its global.json chooses it), e.g. the repository's root.</param>
    /// <param name="cancellationToken">Stops the processes asked.</param>
    public static async Task<MachineDescription> DescribeAsync(string name, string sdkFolder, CancellationToken cancellationToken)
    {
        var sdk = DotnetInstallation.Current();
        var sdkVersion = await sdk.SdkVersionAsync(sdkFolder, cancellationToken).ConfigureAwait(false);
        var runner = Environment.GetEnvironmentVariable("GITHUB_ACTIONS") == "true"
            ? $"GitHub Actions {Environment.GetEnvironmentVariable("RUNNER_OS")} {Environment.GetEnvironmentVariable("RUNNER_ARCH")}, image {Environment.GetEnvironmentVariable("ImageOS")} {Environment.GetEnvironmentVariable("ImageVersion")}".TrimEnd()
            : null;
        return new MachineDescription(
            name,
            RuntimeProvisioner.RuntimeIdentifier,
            RuntimeInformation.OSDescription,
            await ProcessorAsync(cancellationToken).ConfigureAwait(false),
            Environment.ProcessorCount,
            GC.GetGCMemoryInfo().TotalAvailableMemoryBytes,
            sdkVersion,
            runner);
    }

    /// <summary>This machine's processor (<see cref="ProcessorAsync"/>), asked once per process: every run records it.</summary>
    public static string ThisProcessor => LazyProcessor.Value;

    private static readonly Lazy<string> LazyProcessor = new(() => ProcessorAsync(CancellationToken.None).GetAwaiter().GetResult());

    /// <summary>The processor's model name, as the OS tells it (each its own way); "unknown" rather than a failure.</summary>
    /// <param name="cancellationToken">Stops the process asked (macOS).</param>
    public static async Task<string> ProcessorAsync(CancellationToken cancellationToken)
    {
        if (OperatingSystem.IsWindows())
        {
            return Environment.GetEnvironmentVariable("PROCESSOR_IDENTIFIER") ?? "unknown";
        }

        if (OperatingSystem.IsMacOS())
        {
            return await SysctlAsync("machdep.cpu.brand_string", cancellationToken).ConfigureAwait(false) ?? "unknown";
        }

        try
        {
            var lines = await File.ReadAllLinesAsync("/proc/cpuinfo", cancellationToken).ConfigureAwait(false);
            var model = lines.FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))
                ?? lines.FirstOrDefault(l => l.StartsWith("CPU part", StringComparison.Ordinal));
            return model is null ? "unknown" : model[(model.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
        }
        catch (IOException)
        {
            return "unknown";
        }
    }

    /// <summary>
    /// The load average over 1, 5 and 15 minutes (runnable processes, as <c>uptime</c> prints it), where the OS keeps it
    /// in /proc/loadavg (Linux); null elsewhere. Not part of the description: it is the machine's state at a moment.
    /// </summary>
    public static IReadOnlyList<double>? LoadAverage()
    {
        try
        {
            var fields = File.ReadAllText("/proc/loadavg").Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return fields.Length >= 3 ? fields.Take(3).Select(f => double.Parse(f, System.Globalization.CultureInfo.InvariantCulture)).ToArray() : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }

    private static async Task<string?> SysctlAsync(string name, CancellationToken cancellationToken)
    {
        try
        {
            var result = await ChildProcess.RunAsync("sysctl", ["-n", name], null, null, TimeSpan.FromSeconds(30), null, cancellationToken).ConfigureAwait(false);
            return result.ExitCode == 0 && !string.IsNullOrWhiteSpace(result.StandardOutput) ? result.StandardOutput.Trim() : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }
}
