using System.Text.Json;
using PerfLab.Files;
using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Course.Kit;

/// <summary>What an offline kit holds: its perflab-kit.json.</summary>
/// <param name="Format">The kit layout's version.</param>
/// <param name="Created">When the kit was made.</param>
/// <param name="SdkVersion">The .NET SDK that made it (its targeting packs are the ones in the kit).</param>
/// <param name="Platforms">Runtime identifiers the kit serves, e.g. linux-x64, win-x64.</param>
/// <param name="Runtimes">The pinned runtimes whose packs it holds, e.g. 8.0.31.</param>
/// <param name="PackageCount">How many packages are in packages/.</param>
/// <param name="PackageBytes">Their total size.</param>
/// <param name="CourseCommit">The course commit in course.bundle, when git was there to make one.</param>
public sealed record KitManifest(
    int Format,
    DateTimeOffset Created,
    string SdkVersion,
    IReadOnlyList<string> Platforms,
    IReadOnlyList<string> Runtimes,
    int PackageCount,
    long PackageBytes,
    string? CourseCommit);

/// <summary>
/// A folder that lets the course be set up with no network (a workshop room): every NuGet package the
/// helpers restore, the runtime packs of the pinned runtimes and the apphost packs, for each chosen
/// platform, as a flat package source (packages/); a git bundle of the course; and perflab-kit.json.
/// Made by <c>perflab prefetch</c>, used by <c>setup.sh --from</c> / <c>perflab setup --from</c>.
/// </summary>
public sealed class OfflineKit
{
    /// <summary>The manifest's file name; written last, so a half-made kit is never taken for a kit.</summary>
    public const string ManifestFileName = "perflab-kit.json";

    /// <summary>The git bundle of the course the kit was made from.</summary>
    public const string CourseBundleFileName = "course.bundle";

    private const int CurrentFormat = 1;
    private static readonly TimeSpan DownloadTimeout = TimeSpan.FromMinutes(20);
    private static readonly JsonSerializerOptions JsonOptions = new(JsonSerializerDefaults.Web) { WriteIndented = true };

    private OfflineKit(string root, KitManifest manifest)
    {
        Root = root;
        Manifest = manifest;
    }

    /// <summary>Platforms a kit can be made for.</summary>
    public static IReadOnlyList<string> KnownPlatforms { get; } = ["linux-x64", "linux-arm64", "osx-x64", "osx-arm64", "win-x64", "win-arm64"];

    /// <summary>This machine's platform.</summary>
    public static string CurrentPlatform => RuntimeProvisioner.RuntimeIdentifier;

    /// <summary>The kit's folder.</summary>
    public string Root { get; }

    /// <summary>Its manifest.</summary>
    public KitManifest Manifest { get; }

    /// <summary>The flat package source inside the kit.</summary>
    public string PackagesFolder => Path.Combine(Root, "packages");

    /// <summary>Opens a kit and checks it serves this machine.</summary>
    /// <param name="folder">The kit's folder.</param>
    /// <exception cref="PerfLabException">Not a kit, a damaged one, or made for other platforms.</exception>
    public static OfflineKit Open(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var root = Path.GetFullPath(folder);
        var manifestFile = Path.Combine(root, ManifestFileName);
        if (!File.Exists(manifestFile))
        {
            throw new PerfLabException(
                $"{root} is not an offline kit: it has no {ManifestFileName}.",
                "Make one on a connected machine: `dotnet run --project helpers/PerfLab.Cli -- prefetch --out KIT`, then copy the whole folder.");
        }

        KitManifest? manifest;
        try
        {
            manifest = JsonSerializer.Deserialize<KitManifest>(File.ReadAllText(manifestFile), JsonOptions);
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"{manifestFile} is damaged: {ex.Message}", "Copy the kit again, or make it again with `perflab prefetch`.", inner: ex);
        }

        if (manifest is null || manifest.Format != CurrentFormat || manifest.Platforms is null)
        {
            throw new PerfLabException($"{manifestFile} is not a kit this version of PerfLab reads (format {manifest?.Format}).", "Make the kit again with this course's `perflab prefetch`.");
        }

        var kit = new OfflineKit(root, manifest);
        if (!Directory.Exists(kit.PackagesFolder))
        {
            throw new PerfLabException($"The kit at {root} has no packages/ folder.", "Copy the whole kit folder, not only its manifest.");
        }

        if (!manifest.Platforms.Contains(CurrentPlatform, StringComparer.OrdinalIgnoreCase))
        {
            throw new PerfLabException(
                $"The kit at {root} was made for {string.Join(", ", manifest.Platforms)}; this machine is {CurrentPlatform}.",
                $"Make a kit that includes it: `perflab prefetch --out KIT --platform {CurrentPlatform}` (or `--platform all`).");
        }

        return kit;
    }

    /// <summary>Fills <paramref name="outFolder"/> with everything the course needs for <paramref name="platforms"/>. Re-running adds only what is missing.</summary>
    /// <param name="outFolder">The kit's folder (created).</param>
    /// <param name="platforms">Runtime identifiers from <see cref="KnownPlatforms"/>.</param>
    /// <param name="home">Where the temporary download project lives.</param>
    /// <param name="log">Receives one line per step.</param>
    /// <param name="cancellationToken">Stops the download (its process tree is killed).</param>
    public static async Task<KitManifest> PrefetchAsync(string outFolder, IReadOnlyList<string> platforms, PerfLabHome home, Action<string> log, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(platforms);
        ArgumentNullException.ThrowIfNull(home);
        ArgumentNullException.ThrowIfNull(log);
        if (platforms.FirstOrDefault(p => !KnownPlatforms.Contains(p)) is { } unknown)
        {
            throw new PerfLabException($"Unknown platform '{unknown}'.", $"Use one or more of: {string.Join(", ", KnownPlatforms)}, or all.");
        }

        var repo = CourseRepository.Root();
        var root = Path.GetFullPath(outFolder);
        var packagesFolder = Path.Combine(root, "packages");
        Directory.CreateDirectory(packagesFolder);
        var sdk = DotnetInstallation.Current();

        var (restored, globalPackages) = RestoredPackages(repo);
        var wanted = WithPlatforms(restored, platforms);
        log($"{wanted.Count} packages for {string.Join(", ", platforms)} (the helpers' restore, apphost and runtime packs of {string.Join(", ", RuntimeCatalog.All.Select(r => r.Version))})");

        var missing = new List<PackageIdentity>();
        var copied = 0;
        foreach (var package in wanted)
        {
            var target = Path.Combine(packagesFolder, package.FileName);
            if (File.Exists(target))
            {
                continue;
            }

            var cached = Path.Combine(package.FolderIn(globalPackages), package.FileName);
            if (File.Exists(cached))
            {
                AtomicFile.Copy(cached, target);
                copied++;
            }
            else
            {
                missing.Add(package);
            }
        }

        log($"copied {copied} from the NuGet cache; {missing.Count} to download");
        if (missing.Count > 0)
        {
            await DownloadAsync(missing, packagesFolder, home, sdk, log, cancellationToken).ConfigureAwait(false);
        }

        var commit = await BundleCourseAsync(repo, root, log, cancellationToken).ConfigureAwait(false);
        var files = Directory.GetFiles(packagesFolder, "*.nupkg");
        var manifest = new KitManifest(
            CurrentFormat,
            DateTimeOffset.UtcNow,
            await sdk.SdkVersionAsync(repo, cancellationToken).ConfigureAwait(false),
            platforms.ToArray(),
            RuntimeCatalog.All.Select(r => r.Version).ToArray(),
            files.Length,
            files.Sum(f => new FileInfo(f).Length),
            commit);
        var manifestFile = Path.Combine(root, ManifestFileName);
        await AtomicFile.WriteAllTextAsync(manifestFile, JsonSerializer.Serialize(manifest, JsonOptions), cancellationToken).ConfigureAwait(false);
        return manifest;
    }

    // Every package the helpers' last restore used (libraries and the SDK's download-only packs), read
    // from each helper project's project.assets.json, and the NuGet cache they came from.
    private static (IReadOnlyList<PackageIdentity> Packages, string GlobalPackages) RestoredPackages(string repo)
    {
        var packages = new HashSet<PackageIdentity>();
        string? globalPackages = null;
        foreach (var project in Directory.GetDirectories(Path.Combine(repo, "helpers")).Where(d => Directory.EnumerateFiles(d, "*.csproj").Any()))
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
        var suffix = "." + CurrentPlatform;
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
        }

        return result.OrderBy(p => p.FileName, StringComparer.Ordinal).ToArray();
    }

    private static async Task DownloadAsync(IReadOnlyList<PackageIdentity> packages, string packagesFolder, PerfLabHome home, DotnetInstallation sdk, Action<string> log, CancellationToken cancellationToken)
    {
        var work = Path.Combine(home.Work, "prefetch-" + Guid.NewGuid().ToString("N")[..8]);
        var staging = Path.Combine(work, "packages");
        try
        {
            log($"downloading {packages.Count} packages through your NuGet source: {string.Join(", ", packages.Take(4).Select(p => $"{p.Id} {p.Version}"))}{(packages.Count > 4 ? ", ..." : "")}");
            var download = await PackageDownload.RestoreAsync(sdk, work, packages.ToArray(), staging, source: null, DownloadTimeout, cancellationToken).ConfigureAwait(false);
            if (!download.Succeeded)
            {
                throw new PerfLabException(
                    download.Process.TimedOut ? $"Downloading packages for the kit timed out after {DownloadTimeout.TotalMinutes:0} minutes."
                        : download.SourceLacksPackage ? "Your NuGet source lacks packages the kit needs." : "Downloading packages for the kit failed.",
                    download.SourceLacksPackage
                        ? "Make the kit where the source has them (nuget.org has every platform's packs), or leave out the platforms they are for. What is already in the kit is kept."
                        : "Check your connection to your NuGet source (`perflab doctor`), then run prefetch again: what is already in the kit is kept.",
                    download.ErrorLines);
            }

            foreach (var package in packages)
            {
                var downloaded = Path.Combine(package.FolderIn(staging), package.FileName);
                if (!File.Exists(downloaded))
                {
                    throw new PerfLabException($"The restore succeeded but {downloaded} is missing.", "Run prefetch again.");
                }

                AtomicFile.Copy(downloaded, Path.Combine(packagesFolder, package.FileName));
            }
        }
        finally
        {
            try
            {
                if (Directory.Exists(work))
                {
                    Directory.Delete(work, recursive: true);
                }
            }
            catch (IOException)
            {
                // A leftover scratch folder is harmless; the kit itself is complete.
            }
        }
    }

    // A bundle lets a laptop clone the course from the kit: `git clone KIT/course.bundle perflab`.
    private static async Task<string?> BundleCourseAsync(string repo, string root, Action<string> log, CancellationToken cancellationToken)
    {
        var bundle = Path.Combine(root, CourseBundleFileName);
        try
        {
            var head = await ChildProcess.RunAsync("git", ["rev-parse", "HEAD"], null, repo, TimeSpan.FromMinutes(1), null, cancellationToken).ConfigureAwait(false);
            if (head.ExitCode != 0)
            {
                log($"no {CourseBundleFileName}: {repo} is not a git clone (copy the course folder itself to the laptops)");
                return null;
            }

            // With the branch as well as HEAD, a clone of the bundle checks that branch out (not a detached HEAD).
            var branch = await ChildProcess.RunAsync("git", ["symbolic-ref", "--short", "-q", "HEAD"], null, repo, TimeSpan.FromMinutes(1), null, cancellationToken).ConfigureAwait(false);
            var error = "";
            var created = await AtomicFile.TryWriteAsync(bundle, async staging =>
            {
                List<string> arguments = ["bundle", "create", staging, "HEAD"];
                if (branch.ExitCode == 0 && !string.IsNullOrWhiteSpace(branch.StandardOutput))
                {
                    arguments.Add(branch.StandardOutput.Trim());
                }

                var result = await ChildProcess.RunAsync("git", arguments, null, repo, TimeSpan.FromMinutes(5), null, cancellationToken).ConfigureAwait(false);
                error = result.StandardError.Trim();
                return result.ExitCode == 0;
            }).ConfigureAwait(false);
            if (!created)
            {
                log($"no {CourseBundleFileName}: git bundle failed ({error})");
                return null;
            }

            var commit = head.StandardOutput.Trim();
            log($"{CourseBundleFileName}: the course at {commit[..Math.Min(12, commit.Length)]}");
            return commit;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            log($"no {CourseBundleFileName}: git is not on PATH (copy the course folder itself to the laptops)");
            return null;
        }
    }
}
