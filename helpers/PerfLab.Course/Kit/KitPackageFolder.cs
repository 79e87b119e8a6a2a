using PerfLab.Files;
using PerfLab.Runtimes;

namespace PerfLab.Course.Kit;

/// <summary>
/// The kit's packages/ folder, a flat package source: filled from this machine's NuGet cache, the rest
/// downloaded through the user's NuGet source. Only what is missing is added, so a re-run resumes.
/// </summary>
internal static class KitPackageFolder
{
    private static readonly TimeSpan DownloadTimeout = TimeSpan.FromMinutes(20);

    /// <summary>Puts every package of <paramref name="list"/> into <paramref name="packagesFolder"/>.</summary>
    /// <param name="list">What the kit needs.</param>
    /// <param name="packagesFolder">The kit's packages/ folder (exists).</param>
    /// <param name="home">Where the temporary download project lives.</param>
    /// <param name="sdk">Whose muxer downloads.</param>
    /// <param name="log">Receives one line per step.</param>
    /// <param name="cancellationToken">Stops the download (its process tree is killed).</param>
    /// <exception cref="PerfLabException">The download failed; what is already in the kit is kept.</exception>
    public static async Task FillAsync(KitPackageList list, string packagesFolder, PerfLabHome home, DotnetInstallation sdk, Action<string> log, CancellationToken cancellationToken)
    {
        var missing = new List<PackageIdentity>();
        var copied = 0;
        foreach (var package in list.Packages)
        {
            var target = Path.Combine(packagesFolder, package.FileName);
            if (File.Exists(target))
            {
                continue;
            }

            var cached = Path.Combine(package.FolderIn(list.GlobalPackages), package.FileName);
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
}
