using System.Runtime.InteropServices;
using PerfLab.Files;
using PerfLab.Processes;

namespace PerfLab.Runtimes;

/// <summary>
/// Provisions a runtime without admin rights: <c>dotnet restore</c> downloads the
/// Microsoft.NETCore.App.Runtime.&lt;rid&gt; pack (the package manager does the download), and its files
/// become shared/Microsoft.NETCore.App/&lt;version&gt; of a private dotnet root in the PerfLab home,
/// next to a copy of the SDK's muxer and hostfxr.
/// </summary>
public sealed class RuntimeProvisioner
{
    private static readonly TimeSpan RestoreTimeout = TimeSpan.FromMinutes(10);
    private readonly PerfLabHome _home;
    private readonly DotnetInstallation _sdk;
    private readonly string? _packageSource;

    /// <param name="home">Where the private root and the download projects live.</param>
    /// <param name="sdk">The SDK whose muxer restores and whose host is copied.</param>
    /// <param name="packageSource">The only package source to download from (an offline kit's folder); null uses the user's NuGet configuration.</param>
    public RuntimeProvisioner(PerfLabHome home, DotnetInstallation sdk, string? packageSource = null)
    {
        _home = home;
        _sdk = sdk;
        _packageSource = packageSource;
    }

    /// <summary>The machine's runtime identifier, e.g. linux-x64, osx-arm64, win-x64.</summary>
    public static string RuntimeIdentifier
    {
        get
        {
            var os = OperatingSystem.IsWindows() ? "win" : OperatingSystem.IsMacOS() ? "osx" : "linux";
            var arch = RuntimeInformation.OSArchitecture switch
            {
                Architecture.X64 => "x64",
                Architecture.Arm64 => "arm64",
                var other => throw new PerfLabException($"Unsupported processor architecture {other}.", "The course runs on x64 and arm64 machines."),
            };
            return $"{os}-{arch}";
        }
    }

    /// <summary>The private root provisioned runtimes live in.</summary>
    public DotnetInstallation PrivateRoot => new(_home.DotnetRoot);

    /// <summary>Downloads and installs <paramref name="runtime"/> into the private root, if it is not there yet.</summary>
    public async Task<DotnetInstallation> ProvisionAsync(PinnedRuntime runtime, Action<string> log, CancellationToken cancellationToken)
    {
        using var gate = await FileLock.AcquireAsync(
            Path.Combine(_home.Locks, "provision.lock"),
            shared: false,
            holder => log($"waiting for another PerfLab process to finish provisioning ({holder})"),
            cancellationToken).ConfigureAwait(false);

        var root = PrivateRoot;
        EnsureMuxer(root);
        if (root.HasFramework(runtime.Version))
        {
            return root;
        }

        log($"provisioning .NET {runtime.Version} ({RuntimeIdentifier}) from the runtime pack on {_packageSource ?? "your NuGet source"}");
        var packFolder = await RestorePackAsync(runtime, cancellationToken).ConfigureAwait(false);
        InstallFramework(runtime, packFolder, root);
        log($"provisioned .NET {runtime.Version} into {root.Root}");
        return root;
    }

    /// <summary>The NuGet package holding a runtime's files for <paramref name="rid"/>.</summary>
    public static string PackIdFor(string rid) => $"Microsoft.NETCore.App.Runtime.{rid}";

    private static string PackId => PackIdFor(RuntimeIdentifier);

    private async Task<string> RestorePackAsync(PinnedRuntime runtime, CancellationToken cancellationToken)
    {
        var pack = new PackageIdentity(PackId, runtime.Version);
        var download = await PackageDownload.RestoreAsync(
            _sdk, Path.Combine(_home.Provisioning, runtime.Version), [pack], packagesFolder: null, _packageSource, RestoreTimeout, cancellationToken).ConfigureAwait(false);
        if (!download.Succeeded)
        {
            throw RestoreFailure(runtime, download);
        }

        var packFolder = pack.FolderIn(download.PackagesFolder!);
        if (!Directory.Exists(packFolder))
        {
            throw new PerfLabException($"The restore of {PackId} {runtime.Version} succeeded but {packFolder} does not exist.", "Delete the PerfLab home's provision folder and try again.");
        }

        return packFolder;
    }

    private static PerfLabException RestoreFailure(PinnedRuntime runtime, PackageDownloadResult download)
    {
        var reason = download.Process.TimedOut ? "the download timed out"
            : download.SourceUnreachable ? "the package source is unreachable"
            : download.SourceLacksPackage ? $"your package source does not have {PackId} {runtime.Version}"
            : "dotnet restore failed";
        return new PerfLabException(
            $"Could not provision .NET {runtime.Version}: {reason}.",
            download.SourceUnreachable || download.Process.TimedOut
                ? "Connect to your NuGet source (see `perflab doctor`), set up from an offline kit (`./setup.sh --from KIT`), or install the .NET " + runtime.Major + " runtime, then run again."
                : $"Check that {PackId} {runtime.Version} is on your NuGet source, or install the .NET {runtime.Major} runtime.",
            download.ErrorLines);
    }

    private void EnsureMuxer(DotnetInstallation root)
    {
        // A copy, not a link: the muxer finds hostfxr next to its own resolved path.
        Directory.CreateDirectory(root.Root);
        CopyIfMissing(_sdk.Muxer, root.Muxer);
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(root.Muxer, File.GetUnixFileMode(_sdk.Muxer));
        }

        var fxrSource = Directory.EnumerateDirectories(Path.Combine(_sdk.Root, "host", "fxr"))
            .OrderByDescending(d => Version.TryParse(Path.GetFileName(d).Split('-')[0], out var v) ? v : new Version(0, 0))
            .First();
        var fxrTarget = Path.Combine(root.Root, "host", "fxr", Path.GetFileName(fxrSource));
        if (!Directory.Exists(fxrTarget))
        {
            CopyFolderAtomically(fxrSource, fxrTarget, []);
        }
    }

    private static void InstallFramework(PinnedRuntime runtime, string packFolder, DotnetInstallation root)
    {
        var ridFolder = Path.Combine(packFolder, "runtimes", RuntimeIdentifier);
        var lib = Path.Combine(ridFolder, "lib", runtime.Moniker);
        var native = Path.Combine(ridFolder, "native");
        if (!Directory.Exists(lib) || !Directory.Exists(native))
        {
            throw new PerfLabException($"The runtime pack at {packFolder} has no {RuntimeIdentifier} files for {runtime.Moniker}.", "Delete that folder from your NuGet cache and try again.");
        }

        var target = Path.Combine(root.FrameworksFolder, runtime.Version);
        CopyFolderAtomically(lib, target, [native]);
    }

    // Copies into a temporary sibling and renames it into place, so a half-copied framework is never seen.
    private static void CopyFolderAtomically(string source, string target, IReadOnlyList<string> extraSources)
    {
        var staging = Path.Combine(Path.GetDirectoryName(target)!, "." + Path.GetFileName(target) + "-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(staging);
        try
        {
            foreach (var folder in extraSources.Prepend(source))
            {
                foreach (var file in Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories))
                {
                    var destination = Path.Combine(staging, Path.GetRelativePath(folder, file));
                    Directory.CreateDirectory(Path.GetDirectoryName(destination)!);
                    File.Copy(file, destination, overwrite: true);
                }
            }

            if (Directory.Exists(target))
            {
                Directory.Delete(target, recursive: true);
            }

            Directory.Move(staging, target);
        }
        finally
        {
            if (Directory.Exists(staging))
            {
                Directory.Delete(staging, recursive: true);
            }
        }
    }

    private static void CopyIfMissing(string source, string target)
    {
        if (!File.Exists(target))
        {
            AtomicFile.Copy(source, target);
        }
    }
}
