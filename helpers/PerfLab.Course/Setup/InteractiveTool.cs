using System.Text.Json;
using PerfLab.Processes;

namespace PerfLab.Course.Setup;

/// <summary>
/// The .NET Interactive tool (dotnet-interactive, the engine of Polyglot Notebooks) that the repository's
/// local tool manifest pins. Optional: the course runs without it, so the doctor reports it for information
/// and never fails or warns over it.
/// </summary>
public static class InteractiveTool
{
    /// <summary>The local tool manifest, relative to the repository root.</summary>
    public const string ManifestPath = ".config/dotnet-tools.json";

    /// <summary>The tool's package id, as the manifest spells it.</summary>
    public const string PackageId = "microsoft.dotnet-interactive";

    /// <summary>The doctor line's name.</summary>
    public const string CheckName = ".NET Interactive";

    /// <summary>
    /// The version the manifest under <paramref name="repoRoot"/> pins, or null when there is no manifest or
    /// it does not list the tool.
    /// </summary>
    /// <exception cref="JsonException">The manifest is not valid JSON.</exception>
    public static string? PinnedVersion(string repoRoot)
    {
        var manifest = Path.Combine(repoRoot, ManifestPath.Replace('/', Path.DirectorySeparatorChar));
        if (!File.Exists(manifest))
        {
            return null;
        }

        using var json = JsonDocument.Parse(File.ReadAllText(manifest));
        return json.RootElement.ValueKind == JsonValueKind.Object
            && json.RootElement.TryGetProperty("tools", out var tools) && tools.ValueKind == JsonValueKind.Object
            && tools.TryGetProperty(PackageId, out var tool) && tool.ValueKind == JsonValueKind.Object
            && tool.TryGetProperty("version", out var version) && version.ValueKind == JsonValueKind.String
            ? version.GetString()
            : null;
    }

    /// <summary>
    /// The doctor's line for the tool: asks `dotnet tool run dotnet-interactive -- --version` in the repository
    /// (what a kernelspec or a reader would start; it never downloads). Null when the manifest pins no such tool.
    /// </summary>
    /// <param name="repoRoot">The repository root (the manifest is looked for from there).</param>
    /// <param name="muxer">The dotnet executable.</param>
    /// <param name="cancellationToken">Stops the question.</param>
    public static async Task<DoctorCheck?> CheckAsync(string repoRoot, string muxer, CancellationToken cancellationToken = default)
    {
        string? pinned;
        try
        {
            pinned = PinnedVersion(repoRoot);
        }
        catch (Exception ex) when (ex is JsonException or IOException or UnauthorizedAccessException)
        {
            return new DoctorCheck(CheckName, CheckStatus.Info, $"{ManifestPath} could not be read ({ex.Message}); .NET Interactive is optional, the course runs without it");
        }

        if (pinned is null)
        {
            return null;
        }

        var run = await ChildProcess.RunAsync(
            muxer,
            ["tool", "run", "dotnet-interactive", "--", "--version"],
            new Dictionary<string, string?> { ["DOTNET_INTERACTIVE_CLI_TELEMETRY_OPTOUT"] = "1", ["DOTNET_NOLOGO"] = "1" },
            repoRoot,
            TimeSpan.FromSeconds(60),
            onOutputLine: null,
            cancellationToken).ConfigureAwait(false);
        return Describe(pinned, run.TimedOut ? -1 : run.ExitCode, run.StandardOutput);
    }

    /// <summary>The line for a pinned version and what `dotnet-interactive --version` answered.</summary>
    /// <param name="pinned">The manifest's version.</param>
    /// <param name="exitCode">How `dotnet tool run dotnet-interactive -- --version` ended.</param>
    /// <param name="output">What it printed, e.g. "1.0.712001+df4e5cb...".</param>
    public static DoctorCheck Describe(string pinned, int exitCode, string output)
    {
        var said = output.Trim();
        var version = said.Split('+', 2)[0];
        return exitCode == 0 && version == pinned
            ? new DoctorCheck(CheckName, CheckStatus.Info, $"dotnet-interactive {version} restored ({ManifestPath}): Polyglot Notebooks' engine; `dotnet tool run dotnet-interactive -- jupyter` is a kernel for the notebooks")
            : new DoctorCheck(CheckName, CheckStatus.Info, $"dotnet-interactive {pinned} is pinned in {ManifestPath} but not restored; optional (the course runs without it): `dotnet tool restore` adds it");
    }
}
