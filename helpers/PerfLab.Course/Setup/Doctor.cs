using System.Text.RegularExpressions;
using PerfLab.Benchmarks;
using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Course.Setup;

/// <summary>How a check came out.</summary>
public enum CheckStatus
{
    /// <summary>All good.</summary>
    Ok,

    /// <summary>Works, but something will happen on first use or could go wrong.</summary>
    Warning,

    /// <summary>Broken: the course will not work until it is fixed.</summary>
    Failed,

    /// <summary>For information: an optional piece, reported whether or not it is here; never a warning or a failure.</summary>
    Info,
}

/// <summary>One line of `perflab doctor`.</summary>
/// <param name="Name">What was checked.</param>
/// <param name="Status">How it came out.</param>
/// <param name="Detail">What was found.</param>
/// <param name="Fix">What to do, when not ok.</param>
public sealed record DoctorCheck(string Name, CheckStatus Status, string Detail, string? Fix = null);

/// <summary>
/// Checks everything the course needs: SDK, host build, runtimes, disk, write access, package sources; and
/// reports the optional .NET Interactive tool (<see cref="InteractiveTool"/>) when the repository pins it.
/// </summary>
public sealed partial class Doctor
{
    /// <summary>Free disk space below which provisioning and builds may fail.</summary>
    public const long MinimumFreeBytes = 1L << 30;

    private readonly PerfLabHome _home;

    /// <summary>Creates a doctor for a PerfLab home.</summary>
    /// <param name="home">The home to check; null uses the default.</param>
    public Doctor(PerfLabHome? home = null) => _home = home ?? PerfLabHome.Default();

    /// <summary>Runs every check.</summary>
    /// <param name="cancellationToken">Stops the network checks.</param>
    public async Task<IReadOnlyList<DoctorCheck>> RunAsync(CancellationToken cancellationToken = default)
    {
        var checks = new List<DoctorCheck>();
        DotnetInstallation? sdk = null;
        try
        {
            sdk = DotnetInstallation.Current();
            checks.Add(new DoctorCheck(".NET SDK", CheckStatus.Ok, $"runtime {Environment.Version} at {sdk.Root}"));
        }
        catch (PerfLabException ex)
        {
            checks.Add(new DoctorCheck(".NET SDK", CheckStatus.Failed, ex.Message, ex.Fix));
        }

        checks.Add(CheckHost());
        checks.Add(CheckWriteAccess());
        checks.Add(CheckDisk());
        if (sdk is not null)
        {
            var locator = new RuntimeLocator(_home, sdk);
            var allRuntimesHere = true;
            foreach (var runtime in RuntimeCatalog.All)
            {
                var located = locator.Locate(runtime);
                allRuntimesHere &= located.Source != RuntimeSource.Missing;
                checks.Add(located.Source == RuntimeSource.Missing
                    ? new DoctorCheck($"runtime {runtime.Moniker}", CheckStatus.Warning, $"{runtime.Version} is not here yet; it is provisioned from NuGet on first use", "Run `perflab runtimes --provision` now while you are online.")
                    : new DoctorCheck($"runtime {runtime.Moniker}", CheckStatus.Ok, $"{runtime.Version} {located.Source.Name()} at {located.Path}"));
            }

            checks.AddRange(await CheckPackageSourcesAsync(sdk, allRuntimesHere, cancellationToken).ConfigureAwait(false));
            if (CourseRepository.Find(AppContext.BaseDirectory) is { } repository
                && await InteractiveTool.CheckAsync(repository, sdk.Muxer, cancellationToken).ConfigureAwait(false) is { } interactive)
            {
                checks.Add(interactive);
            }
        }

        return checks;
    }

    private static DoctorCheck CheckHost()
    {
        try
        {
            var layout = new HostLayout();
            foreach (var runtime in RuntimeCatalog.All)
            {
                layout.FolderFor(runtime);
            }

            return new DoctorCheck("benchmark host", CheckStatus.Ok, $"built for {string.Join(", ", RuntimeCatalog.Monikers)} in {layout.BaseDirectory}");
        }
        catch (PerfLabException ex)
        {
            return new DoctorCheck("benchmark host", CheckStatus.Failed, ex.Message, ex.Fix);
        }
    }

    private DoctorCheck CheckWriteAccess()
    {
        try
        {
            Directory.CreateDirectory(_home.Root);
            var probe = Path.Combine(_home.Root, $".write-probe-{Environment.ProcessId}");
            File.WriteAllText(probe, "ok");
            File.Delete(probe);
            return new DoctorCheck("write access", CheckStatus.Ok, _home.Root);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return new DoctorCheck("write access", CheckStatus.Failed, $"cannot write to {_home.Root}: {ex.Message}", "Set PERFLAB_HOME to a folder you can write to.");
        }
    }

    private DoctorCheck CheckDisk()
    {
        try
        {
            var free = new DriveInfo(Path.GetPathRoot(_home.Root)!).AvailableFreeSpace;
            var text = $"{free / (1024.0 * 1024 * 1024):F1} GB free where {_home.Root} lives";
            return free >= MinimumFreeBytes
                ? new DoctorCheck("disk space", CheckStatus.Ok, text)
                : new DoctorCheck("disk space", CheckStatus.Failed, text, "Free at least 1 GB: each provisioned runtime takes about 70 MB, builds and results a little more.");
        }
        catch (Exception ex) when (ex is IOException or ArgumentException or UnauthorizedAccessException)
        {
            return new DoctorCheck("disk space", CheckStatus.Warning, $"could not read free space: {ex.Message}");
        }
    }

    // An unreachable source only matters while something is left to download: once every runtime is
    // here and the helpers are built, the course works offline (a workshop room).
    private static async Task<IReadOnlyList<DoctorCheck>> CheckPackageSourcesAsync(DotnetInstallation sdk, bool allRuntimesHere, CancellationToken cancellationToken)
    {
        var listing = await ChildProcess.RunAsync(sdk.Muxer, ["nuget", "list", "source", "--format", "short"], null, null, TimeSpan.FromSeconds(60), null, cancellationToken).ConfigureAwait(false);
        var sources = listing.StandardOutput.Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            .Select(l => SourceLine().Match(l))
            .Where(m => m.Success && m.Groups["state"].Value.StartsWith('E'))
            .Select(m => m.Groups["url"].Value)
            .ToArray();
        if (sources.Length == 0)
        {
            return [new DoctorCheck("package sources", CheckStatus.Failed, "no enabled NuGet source", "Add one: `dotnet nuget add source https://api.nuget.org/v3/index.json`.")];
        }

        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        var checks = new List<DoctorCheck>();
        foreach (var source in sources)
        {
            if (!Uri.TryCreate(source, UriKind.Absolute, out var uri) || uri.IsFile)
            {
                var exists = Directory.Exists(uri?.LocalPath ?? source);
                checks.Add(new DoctorCheck("package source", exists ? CheckStatus.Ok : CheckStatus.Failed, source + (exists ? " (folder)" : " (folder does not exist)"), exists ? null : "Create the folder or remove the source."));
                continue;
            }

            try
            {
                using var response = await http.GetAsync(uri, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false);
                checks.Add(response.IsSuccessStatusCode
                    ? new DoctorCheck("package source", CheckStatus.Ok, $"{source} answers")
                    : new DoctorCheck("package source", CheckStatus.Warning, $"{source} answered {(int)response.StatusCode}", "Check the source's address and credentials."));
            }
            catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException)
            {
                checks.Add(allRuntimesHere
                    ? new DoctorCheck("package source", CheckStatus.Warning, $"{source} is unreachable ({ex.Message}); fine offline, since every runtime is here", "Connect before changing packages or runtimes.")
                    : new DoctorCheck("package source", CheckStatus.Failed, $"{source} is unreachable ({ex.Message})", "Connect to the network, or set up from an offline kit: `./setup.sh --from KIT` (docs/workshop.md)."));
            }
        }

        return checks;
    }

    [GeneratedRegex(@"^(?<state>[ED])\w*\s+(?<url>\S+)$")]
    private static partial Regex SourceLine();
}
