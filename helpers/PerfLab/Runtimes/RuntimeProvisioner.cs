using System.Runtime.InteropServices;
using System.Text.Json;
using PerfLab.Processes;

namespace PerfLab.Runtimes;

/// <summary>
/// Provisions a runtime without admin rights: <c>dotnet restore</c> downloads the
/// Microsoft.NETCore.App.Runtime.&lt;rid&gt; pack (the package manager does the download), and its files
/// become shared/Microsoft.NETCore.App/&lt;version&gt; of a private dotnet root in the PerfLab home,
/// next to a copy of the SDK's muxer and hostfxr.
/// </summary>
internal sealed class RuntimeProvisioner
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
        var project = Path.Combine(_home.Provisioning, runtime.Version);
        Directory.CreateDirectory(project);
        var tfm = $"net{Environment.Version.Major}.0";
        await File.WriteAllTextAsync(Path.Combine(project, "provision.csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <!-- Written by PerfLab: downloads one runtime pack; nothing is built. -->
              <PropertyGroup>
                <TargetFramework>{tfm}</TargetFramework>
              </PropertyGroup>
              <ItemGroup>
                <PackageDownload Include="{PackId}" Version="[{runtime.Version}]" />
              </ItemGroup>
            </Project>
            """, cancellationToken).ConfigureAwait(false);

        List<string> arguments = ["restore", "provision.csproj", "-p:ImportDirectoryBuildProps=false", "-p:ImportDirectoryPackagesProps=false", "--nologo", "-v", "q"];
        if (_packageSource is not null)
        {
            arguments.AddRange(["--source", _packageSource]);
        }

        var result = await ChildProcess.RunAsync(
            _sdk.Muxer,
            arguments,
            new Dictionary<string, string?> { ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1", ["DOTNET_NOLOGO"] = "1" },
            project,
            RestoreTimeout,
            onOutputLine: null,
            cancellationToken).ConfigureAwait(false);

        if (result.TimedOut || result.ExitCode != 0)
        {
            throw RestoreFailure(runtime, result);
        }

        var packFolder = Path.Combine(PackagesFolder(project), PackId.ToLowerInvariant(), runtime.Version);
        if (!Directory.Exists(packFolder))
        {
            throw new PerfLabException($"The restore of {PackId} {runtime.Version} succeeded but {packFolder} does not exist.", "Delete the PerfLab home's provision folder and try again.");
        }

        return packFolder;
    }

    private static PerfLabException RestoreFailure(PinnedRuntime runtime, ChildProcessResult result)
    {
        var output = (result.StandardOutput + result.StandardError).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var errors = output.Where(l => l.Contains("error", StringComparison.OrdinalIgnoreCase)).Take(8).ToArray();
        var unreachable = output.Any(l => l.Contains("NU1301", StringComparison.Ordinal) || l.Contains("Unable to load the service index", StringComparison.Ordinal));
        var missing = output.Any(l => l.Contains("NU1101", StringComparison.Ordinal) || l.Contains("NU1102", StringComparison.Ordinal));
        var reason = result.TimedOut ? "the download timed out"
            : unreachable ? "the package source is unreachable"
            : missing ? $"your package source does not have {PackId} {runtime.Version}"
            : "dotnet restore failed";
        return new PerfLabException(
            $"Could not provision .NET {runtime.Version}: {reason}.",
            unreachable || result.TimedOut
                ? "Connect to your NuGet source (see `perflab doctor`), or install the .NET " + runtime.Major + " runtime, then run again."
                : $"Check that {PackId} {runtime.Version} is on your NuGet source, or install the .NET {runtime.Major} runtime.",
            errors.Length > 0 ? errors : output.TakeLast(8).ToArray());
    }

    // The restore records where it put packages: the global packages folder in effect for this user.
    private static string PackagesFolder(string project)
    {
        var assets = Path.Combine(project, "obj", "project.assets.json");
        using var stream = File.OpenRead(assets);
        using var document = JsonDocument.Parse(stream);
        foreach (var folder in document.RootElement.GetProperty("packageFolders").EnumerateObject())
        {
            return folder.Name;
        }

        throw new PerfLabException($"{assets} names no package folder.", "Delete the PerfLab home's provision folder and try again.");
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
            var staging = target + ".tmp";
            File.Copy(source, staging, overwrite: true);
            File.Move(staging, target, overwrite: true);
        }
    }
}
