using System.Text.Json;
using System.Text.RegularExpressions;
using PerfLab.Benchmarks;
using PerfLab.Kernel;
using PerfLab.Notebooks.Documents;
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
/// Checks everything the course needs: SDK, host build, notebook helpers, write access, disk, runtimes, package
/// sources and the Jupyter kernel; and reports the optional .NET Interactive tool (<see cref="InteractiveTool"/>)
/// when the repository pins it.
/// </summary>
public sealed partial class Doctor
{
    /// <summary>Free disk space below which provisioning and builds may fail.</summary>
    public const long MinimumFreeBytes = 1L << 30;

    private readonly PerfLabHome _home;

    /// <summary>Creates a doctor for a PerfLab home.</summary>
    /// <param name="home">The home to check; null uses the default.</param>
    public Doctor(PerfLabHome? home = null) => _home = home ?? PerfLabHome.Default();

    /// <summary>
    /// Runs every check and reports it, `perflab doctor`'s way: a line per check (ok, warn, info or FAIL, what
    /// was checked, what was found), its fix on the next line, then a summary line.
    /// </summary>
    /// <param name="report">Receives the lines.</param>
    /// <param name="cancellationToken">Stops the network checks.</param>
    /// <returns>How many checks failed.</returns>
    public async Task<int> ReportAsync(Action<string> report, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(report);
        var checks = await RunAsync(cancellationToken).ConfigureAwait(false);
        var width = checks.Max(c => c.Name.Length);
        foreach (var check in checks)
        {
            var mark = check.Status switch { CheckStatus.Ok => "ok  ", CheckStatus.Warning => "warn", CheckStatus.Info => "info", _ => "FAIL" };
            report($"[{mark}] {check.Name.PadRight(width)}  {check.Detail}");
            if (check.Fix is not null)
            {
                report($"       {new string(' ', width)}  fix: {check.Fix}");
            }
        }

        var failed = checks.Count(c => c.Status == CheckStatus.Failed);
        var warned = checks.Count(c => c.Status == CheckStatus.Warning);
        report(failed > 0 ? $"{failed} check(s) failed." : warned > 0 ? $"No failures; {warned} warning(s)." : "All checks passed.");
        return failed;
    }

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
        checks.Add(CheckNotebookHelpers());
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

            checks.Add(CheckPrecompiledHosts(locator));
            checks.AddRange(await CheckPackageSourcesAsync(sdk, allRuntimesHere, cancellationToken).ConfigureAwait(false));
            if (CourseRepository.Find(AppContext.BaseDirectory) is { } repository
                && await InteractiveTool.CheckAsync(repository, sdk.Muxer, cancellationToken).ConfigureAwait(false) is { } interactive)
            {
                checks.Add(interactive);
            }
        }

        checks.Add(CheckKernel());
        return checks;
    }

    // Precompiled hosts only save time: a missing one is information, a remembered failed download a warning with its fix.
    private DoctorCheck CheckPrecompiledHosts(RuntimeLocator locator)
    {
        const string Name = "precompiled host";
        if (!ReadyToRunHosts.Enabled)
        {
            return new DoctorCheck(Name, CheckStatus.Info, $"launches use the host as built (ReadyToRun hosts are made on linux-x64 unless {ReadyToRunHosts.Variable}=0; this is {RuntimeProvisioner.RuntimeIdentifier})");
        }

        try
        {
            var hosts = new ReadyToRunHosts(_home, new HostLayout(), locator.Sdk);
            var status = RuntimeCatalog.All.Select(r => (Runtime: r, Status: hosts.StatusOf(r))).ToArray();
            if (status.FirstOrDefault(s => !s.Status.Made && s.Status.Unavailable is not null) is { Runtime: { } failed } failure)
            {
                return new DoctorCheck(Name, CheckStatus.Warning, $"not made for .NET {failed.Version}: {failure.Status.Unavailable}; its launches take about 0.3 s longer", "Run `perflab runtimes --provision` while you are online.");
            }

            var missing = status.Where(s => !s.Status.Made).Select(s => s.Runtime.Version).ToArray();
            return missing.Length == 0
                ? new DoctorCheck(Name, CheckStatus.Ok, $"made for {string.Join(", ", status.Select(s => s.Runtime.Version))} in {_home.ReadyToRunHosts}")
                : new DoctorCheck(Name, CheckStatus.Info, $"not made yet for {string.Join(", ", missing)}: the first quick or full run makes it (a few seconds), or `perflab runtimes --provision`");
        }
        catch (PerfLabException ex)
        {
            return new DoctorCheck(Name, CheckStatus.Info, ex.Message, ex.Fix);
        }
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

    private static DoctorCheck CheckNotebookHelpers()
    {
        const string name = "notebook helpers";
        try
        {
            var dll = Path.Combine(CourseRepository.Root(), SetupCell.HelpersFolder, "PerfLab.Notebooks.dll");
            return File.Exists(dll)
                ? new DoctorCheck(name, CheckStatus.Ok, $"built: {dll}")
                : new DoctorCheck(name, CheckStatus.Failed, $"not built: {dll} is missing, so every notebook's setup cell fails", $"Run `{SetupCell.BuildCommand}` (./setup.sh does it).");
        }
        catch (PerfLabException ex)
        {
            return new DoctorCheck(name, CheckStatus.Warning, ex.Message, ex.Fix);
        }
    }

    private static DoctorCheck CheckKernel()
    {
        const string name = "Jupyter kernel";
        var spec = Path.Combine(KernelSpec.Folder(KernelSpec.UserDataDirectory()), "kernel.json");
        var jupyter = ExecutableSearch.Find("jupyter");
        if (!File.Exists(spec))
        {
            return jupyter is null
                ? new DoctorCheck(name, CheckStatus.Ok, "Jupyter is not on PATH; the notebooks run headless with `perflab run` (install Jupyter, then `perflab kernel install`, to read them live)")
                : new DoctorCheck(name, CheckStatus.Warning, $"'{KernelSpec.Name}' is not installed for {jupyter}", "Run `perflab kernel install` (./setup.sh does it).");
        }

        try
        {
            using var document = JsonDocument.Parse(File.ReadAllText(spec));
            var argv = document.RootElement.GetProperty("argv").EnumerateArray().Select(a => a.GetString() ?? "").ToArray();
            var missing = argv.Take(2).Where(a => Path.IsPathRooted(a) && !File.Exists(a)).ToArray();
            return missing.Length == 0
                ? new DoctorCheck(name, CheckStatus.Ok, $"'{KernelSpec.Name}' installed: {spec}")
                : new DoctorCheck(name, CheckStatus.Failed, $"{spec} starts {missing[0]}, which no longer exists", "Run `perflab kernel install` again from this clone.");
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or IOException)
        {
            return new DoctorCheck(name, CheckStatus.Failed, $"{spec} is damaged: {ex.Message}", "Run `perflab kernel install` again.");
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
