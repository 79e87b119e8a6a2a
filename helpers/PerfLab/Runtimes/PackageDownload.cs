using System.Text.Json;
using PerfLab.Files;
using PerfLab.Processes;

namespace PerfLab.Runtimes;

/// <summary>A package at an exact version.</summary>
/// <param name="Id">The package id as NuGet lists it.</param>
/// <param name="Version">The exact, normalized version.</param>
public sealed record PackageIdentity(string Id, string Version)
{
    /// <summary>The name NuGet gives the package file, as in a flat feed: id.version.nupkg, lower case.</summary>
    public string FileName => $"{Id}.{Version}.nupkg".ToLowerInvariant();

    /// <summary>Where the package sits under a NuGet packages folder (the global cache's layout).</summary>
    public string FolderIn(string packagesFolder) => Path.Combine(packagesFolder, Id.ToLowerInvariant(), Version.ToLowerInvariant());
}

/// <summary>How a download ended.</summary>
/// <param name="Process">The restore process.</param>
/// <param name="PackagesFolder">Where the packages went.</param>
public sealed record PackageDownloadResult(ChildProcessResult Process, string? PackagesFolder)
{
    /// <summary>Whether the restore succeeded.</summary>
    public bool Succeeded => !Process.TimedOut && Process.ExitCode == 0 && PackagesFolder is not null;

    /// <summary>The restore's output, line by line.</summary>
    public IReadOnlyList<string> OutputLines => (Process.StandardOutput + Process.StandardError).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>The source had no such package or version (NU1101, NU1102).</summary>
    public bool SourceLacksPackage => OutputLines.Any(l => l.Contains("NU1101", StringComparison.Ordinal) || l.Contains("NU1102", StringComparison.Ordinal));

    /// <summary>The source could not be reached (NU1301).</summary>
    public bool SourceUnreachable => OutputLines.Any(l => l.Contains("NU1301", StringComparison.Ordinal) || l.Contains("Unable to load the service index", StringComparison.Ordinal));

    /// <summary>The lines worth showing a reader: the errors, else the last lines.</summary>
    public IReadOnlyList<string> ErrorLines
    {
        get
        {
            // MSBuild's "file : error NU1301: ..." lines, not a warning that merely says "Error occurred".
            var errors = OutputLines.Where(l => l.Contains(" error ", StringComparison.Ordinal)).Take(8).ToArray();
            return errors.Length > 0 ? errors : OutputLines.TakeLast(8).ToArray();
        }
    }
}

/// <summary>
/// Downloads exact package versions with `dotnet restore` of a generated project of PackageDownload
/// items: the package manager does the download (sources, credentials, proxies, its cache), nothing is
/// built. Runtime provisioning and the offline kit both download this way.
/// </summary>
public static class PackageDownload
{
    /// <summary>Restores <paramref name="packages"/> from a project written into <paramref name="projectFolder"/>.</summary>
    /// <param name="sdk">Whose muxer restores.</param>
    /// <param name="projectFolder">Where the generated project is written (created).</param>
    /// <param name="packages">What to download.</param>
    /// <param name="packagesFolder">Where packages go; null: the user's NuGet cache.</param>
    /// <param name="source">The only source to use; null: the user's NuGet configuration.</param>
    /// <param name="timeout">How long the restore may take; its process tree is killed then.</param>
    /// <param name="cancellationToken">Stops the restore (tree killed).</param>
    public static async Task<PackageDownloadResult> RestoreAsync(
        DotnetInstallation sdk,
        string projectFolder,
        IReadOnlyCollection<PackageIdentity> packages,
        string? packagesFolder,
        string? source,
        TimeSpan timeout,
        CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(projectFolder);
        // One item per id: NuGet keeps only one of several items with the same id, so versions are listed as "[a];[b]".
        var items = string.Join(Environment.NewLine, packages
            .GroupBy(p => p.Id, StringComparer.OrdinalIgnoreCase)
            .Select(g => $"    <PackageDownload Include=\"{g.Key}\" Version=\"{string.Join(';', g.Select(p => $"[{p.Version}]"))}\" />"));
        await AtomicFile.WriteAllTextAsync(Path.Combine(projectFolder, "download.csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <!-- Written by PerfLab: downloads packages; nothing is built. -->
              <PropertyGroup>
                <TargetFramework>net{Environment.Version.Major}.0</TargetFramework>
              </PropertyGroup>
              <ItemGroup>
            {items}
              </ItemGroup>
            </Project>
            """, cancellationToken).ConfigureAwait(false);

        List<string> arguments = ["restore", "download.csproj", "-p:ImportDirectoryBuildProps=false", "-p:ImportDirectoryPackagesProps=false", "--nologo", "-v", "q"];
        if (packagesFolder is not null)
        {
            arguments.AddRange(["--packages", packagesFolder]);
        }

        if (source is not null)
        {
            arguments.AddRange(["--source", source]);
        }

        var result = await ChildProcess.RunAsync(
            sdk.Muxer,
            arguments,
            new Dictionary<string, string?> { ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1", ["DOTNET_NOLOGO"] = "1" },
            projectFolder,
            timeout,
            onOutputLine: null,
            cancellationToken).ConfigureAwait(false);
        return new PackageDownloadResult(result, result.ExitCode == 0 && !result.TimedOut ? packagesFolder ?? RecordedPackagesFolder(projectFolder) : null);
    }

    /// <summary>The packages folder a restore in <paramref name="projectFolder"/> used, as its project.assets.json records it.</summary>
    public static string? RecordedPackagesFolder(string projectFolder)
    {
        var assets = Path.Combine(projectFolder, "obj", "project.assets.json");
        if (!File.Exists(assets))
        {
            return null;
        }

        using var document = JsonDocument.Parse(File.ReadAllText(assets));
        return PackagesFolderOf(document.RootElement);
    }

    /// <summary>The packages folder (the first of packageFolders) a parsed project.assets.json records.</summary>
    public static string? PackagesFolderOf(JsonElement assets) =>
        assets.GetProperty("packageFolders").EnumerateObject().Select(f => f.Name).FirstOrDefault();
}
