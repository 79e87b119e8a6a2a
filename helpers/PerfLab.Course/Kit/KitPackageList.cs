using System.Text.Json;
using PerfLab.Benchmarks;
using PerfLab.Course.Setup;
using PerfLab.Runtimes;

namespace PerfLab.Course.Kit;

/// <summary>The packages a kit must hold, and where this machine's NuGet cache already has them.</summary>
/// <param name="Packages">Every package, ordered by file name.</param>
/// <param name="GlobalPackages">The NuGet cache the helpers restored from.</param>
internal sealed record KitPackageList(IReadOnlyList<PackageIdentity> Packages, string GlobalPackages)
{
    /// <summary>
    /// Every package the helpers' last restore used, for each of <paramref name="platforms"/>, plus the
    /// runtime packs of every pinned runtime, the crossgen2 packs that precompile the host where it is precompiled, and the .NET Interactive tool the local tool manifest pins (so
    /// `setup.sh --from KIT` restores it offline, for Polyglot Notebooks).
    /// </summary>
    /// <param name="repo">The course's repository (its helpers/ are read).</param>
    /// <param name="platforms">Runtime identifiers the kit serves.</param>
    /// <exception cref="PerfLabException">A helper is not restored.</exception>
    public static KitPackageList For(string repo, IReadOnlyList<string> platforms)
    {
        var (restored, globalPackages) = RestoredPackages(repo);
        var tool = InteractiveTool.PinnedVersion(repo) is { } version ? [new PackageIdentity(InteractiveTool.PackageId, version)] : Array.Empty<PackageIdentity>();
        return new KitPackageList(WithPlatforms([.. restored, .. tool], platforms), globalPackages);
    }

    // Every package the helpers' last restore used (libraries and the SDK's download-only packs), read
    // from each helper project's project.assets.json, and the NuGet cache they came from.
    private static (IReadOnlyList<PackageIdentity> Packages, string GlobalPackages) RestoredPackages(string repo)
    {
        var packages = new HashSet<PackageIdentity>();
        string? globalPackages = null;
        foreach (var project in Directory.GetDirectories(CourseRepository.PathOf(CourseRepository.HelpersFolder, repo)).Where(d => Directory.EnumerateFiles(d, "*.csproj").Any()))
        {
            var assets = Path.Combine(project, "obj", "project.assets.json");
            if (!File.Exists(assets))
            {
                throw new PerfLabException(
                    $"{Path.GetFileName(project)} is not restored ({assets} is missing), so the packages it needs are unknown.",
                    "Build the helpers first: `./setup.sh` (or `dotnet build helpers/PerfLab.Cli`).");
            }

            using var document = JsonDocument.Parse(File.ReadAllText(assets));
            var rootElement = document.RootElement;
            globalPackages ??= PackageDownload.PackagesFolderOf(rootElement);
            foreach (var library in rootElement.GetProperty("libraries").EnumerateObject())
            {
                if (library.Value.GetProperty("type").GetString() == "package")
                {
                    var slash = library.Name.IndexOf('/', StringComparison.Ordinal);
                    packages.Add(new PackageIdentity(library.Name[..slash], library.Name[(slash + 1)..]));
                }
            }

            foreach (var framework in rootElement.GetProperty("project").GetProperty("frameworks").EnumerateObject())
            {
                if (!framework.Value.TryGetProperty("downloadDependencies", out var downloads))
                {
                    continue;
                }

                foreach (var download in downloads.EnumerateArray())
                {
                    // An exact range, "[8.0.22, 8.0.22]".
                    var range = download.GetProperty("version").GetString()!;
                    var version = range.Trim('[', ']', '(', ')').Split(',')[0].Trim();
                    packages.Add(new PackageIdentity(download.GetProperty("name").GetString()!, version));
                }
            }
        }

        return (packages.OrderBy(p => p.FileName, StringComparer.Ordinal).ToArray(),
            globalPackages ?? throw new PerfLabException("The helpers' restore names no NuGet cache folder.", "Build the helpers again: `dotnet build helpers/PerfLab.Cli`."));
    }

    // Platform-specific packs (apphost, runtime) exist once per runtime identifier: the restore here
    // names this machine's; the kit needs each chosen platform's, plus every pinned runtime's pack.
    private static IReadOnlyList<PackageIdentity> WithPlatforms(IReadOnlyList<PackageIdentity> restored, IReadOnlyList<string> platforms)
    {
        var suffix = "." + OfflineKit.CurrentPlatform;
        var result = new HashSet<PackageIdentity>();
        foreach (var package in restored)
        {
            if (package.Id.EndsWith(suffix, StringComparison.OrdinalIgnoreCase))
            {
                var stem = package.Id[..^suffix.Length];
                result.UnionWith(platforms.Select(p => package with { Id = stem + "." + p }));
            }
            else
            {
                result.Add(package);
            }
        }

        foreach (var platform in platforms)
        {
            result.UnionWith(RuntimeCatalog.All.Select(r => new PackageIdentity(RuntimeProvisioner.PackIdFor(platform), r.Version)));
            if (ReadyToRunHosts.CrossgenPackIdFor(platform) is { } crossgen)
            {
                result.UnionWith(RuntimeCatalog.All.Select(r => new PackageIdentity(crossgen, r.Version)));
            }
        }

        return result.OrderBy(p => p.FileName, StringComparer.Ordinal).ToArray();
    }
}
