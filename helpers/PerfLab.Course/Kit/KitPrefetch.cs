using PerfLab.Files;
using PerfLab.Runtimes;

namespace PerfLab.Course.Kit;

/// <summary>
/// <c>perflab prefetch</c>: makes an <see cref="OfflineKit"/> from this clone of the course and the
/// helpers' last restore: the packages (<see cref="KitPackageList"/> into <see cref="KitPackageFolder"/>),
/// the git bundle (<see cref="CourseBundle"/>), then the manifest.
/// </summary>
public static class KitPrefetch
{
    /// <summary>Fills <paramref name="outFolder"/> with everything the course needs for <paramref name="platforms"/>. Re-running adds only what is missing.</summary>
    /// <param name="outFolder">The kit's folder (created).</param>
    /// <param name="platforms">Runtime identifiers from <see cref="OfflineKit.KnownPlatforms"/>.</param>
    /// <param name="home">Where the temporary download project lives.</param>
    /// <param name="log">Receives one line per step.</param>
    /// <param name="cancellationToken">Stops the download (its process tree is killed).</param>
    public static async Task<KitManifest> RunAsync(string outFolder, IReadOnlyList<string> platforms, PerfLabHome home, Action<string> log, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(platforms);
        ArgumentNullException.ThrowIfNull(home);
        ArgumentNullException.ThrowIfNull(log);
        if (platforms.FirstOrDefault(p => !OfflineKit.KnownPlatforms.Contains(p)) is { } unknown)
        {
            throw new PerfLabException($"Unknown platform '{unknown}'.", $"Use one or more of: {string.Join(", ", OfflineKit.KnownPlatforms)}, or all.");
        }

        var repo = CourseRepository.Root();
        var root = Path.GetFullPath(outFolder);
        var packagesFolder = Path.Combine(root, OfflineKit.PackagesFolderName);
        Directory.CreateDirectory(packagesFolder);
        var sdk = DotnetInstallation.Current();

        var wanted = KitPackageList.For(repo, platforms);
        log($"{wanted.Packages.Count} packages for {string.Join(", ", platforms)} (the helpers' restore, apphost and runtime packs of {string.Join(", ", RuntimeCatalog.All.Select(r => r.Version))}, crossgen2 where the host is precompiled, the pinned .NET Interactive tool)");
        await KitPackageFolder.FillAsync(wanted, packagesFolder, home, sdk, log, cancellationToken).ConfigureAwait(false);

        var commit = await CourseBundle.CreateAsync(repo, root, log, cancellationToken).ConfigureAwait(false);
        var files = Directory.GetFiles(packagesFolder, "*.nupkg");
        var manifest = new KitManifest(
            KitManifest.CurrentFormat,
            DateTimeOffset.UtcNow,
            await sdk.SdkVersionAsync(repo, cancellationToken).ConfigureAwait(false),
            platforms.ToArray(),
            RuntimeCatalog.All.Select(r => r.Version).ToArray(),
            files.Length,
            files.Sum(f => new FileInfo(f).Length),
            commit);

        // Last, so a half-made kit is never taken for a kit.
        await AtomicFile.WriteAllTextAsync(Path.Combine(root, OfflineKit.ManifestFileName), manifest.ToJson(), cancellationToken).ConfigureAwait(false);
        return manifest;
    }
}
