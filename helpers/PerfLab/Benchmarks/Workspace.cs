using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// What every engine that starts host processes shares: the PerfLab home, runtimes, the host build,
/// the compiler, the launcher, the per-user measuring lock and scratch folders.
/// </summary>
internal sealed class Workspace
{
    public Workspace(PerfLabHome? home)
    {
        Home = home ?? PerfLabHome.Default();
        Runtimes = new RuntimeLocator(Home);
        Hosts = new HostLayout();
        Compiler = new BenchmarkCompiler(Home, Hosts);
        Precompiled = new ReadyToRunHosts(Home, Hosts, Runtimes.Sdk);
        Launcher = new HostLauncher(Precompiled);
    }

    public PerfLabHome Home { get; }

    public RuntimeLocator Runtimes { get; }

    public HostLayout Hosts { get; }

    public BenchmarkCompiler Compiler { get; }

    /// <summary>The hosts launches start: with ReadyToRun code once prepared (<see cref="LocateAsync"/>).</summary>
    public ReadyToRunHosts Precompiled { get; }

    public HostLauncher Launcher { get; }

    /// <summary>
    /// Compiles <paramref name="source"/> for the runtime of every work (the errors of all runtimes come
    /// together) and hands each work its assembly.
    /// </summary>
    public async Task CompileAsync<TOutcome>(string source, string sourcePath, IReadOnlyList<RuntimeWork<TOutcome>> works, CancellationToken cancellationToken)
        where TOutcome : class
    {
        var compiled = await Compiler.CompileAsync(source, sourcePath, works.Select(w => w.Runtime).ToArray(), cancellationToken).ConfigureAwait(false);
        foreach (var work in works)
        {
            work.Compiled = compiled.First(c => c.Runtime == work.Runtime);
        }
    }

    /// <summary>
    /// Locates the runtime of every work, provisioning the missing ones, and finds its precompiled host, making it for
    /// a run that <paramref name="measures"/> (the compile takes seconds once; a smoke run or an asm capture uses one
    /// only when it is made); the runtimes side by side (<see cref="ReadyToRunHosts.PrepareAllAsync"/>).
    /// </summary>
    public async Task LocateAsync<TOutcome>(IEnumerable<RuntimeWork<TOutcome>> works, bool measures, Action<string> log, CancellationToken cancellationToken)
        where TOutcome : class
    {
        var each = works.ToArray();
        var making = measures ? ReadyToRunHosts.HostMaking.Make : ReadyToRunHosts.HostMaking.UseIfMade;
        var located = await Precompiled.PrepareAllAsync(Runtimes, each.Select(w => w.Runtime).ToArray(), log, making, cancellationToken).ConfigureAwait(false);
        for (var i = 0; i < each.Length; i++)
        {
            each[i].Located = located[i];
        }
    }

    /// <summary>
    /// Two runs on one machine would disturb each other's numbers (and an asm capture would disturb a
    /// measurement): a run that measures (quick, full) holds the per-user lock alone. Work that measures
    /// nothing (a smoke run, an asm capture) shares it with other such work and only waits for a measuring
    /// run. The one that waits says so.
    /// </summary>
    /// <param name="measures">True for a run whose numbers count: it runs alone.</param>
    /// <param name="say">Receives the one waiting line.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    public Task<FileLock> AcquireMeasuringLockAsync(bool measures, Action<string> say, CancellationToken cancellationToken) =>
        FileLock.AcquireAsync(
            Path.Combine(Home.Locks, "measure.lock"),
            shared: !measures,
            holder => say($"another PerfLab run is measuring ({holder}); waiting for it to finish so the two do not disturb each other"),
            cancellationToken);

    /// <summary>A new scratch folder name under the home's work folder (not created).</summary>
    public string NewScratchFolder(string kind) =>
        Path.Combine(Home.Work, $"{kind}-{DateTime.UtcNow:yyyyMMdd-HHmmss}-{Environment.ProcessId}-{Guid.NewGuid().ToString("N")[..6]}");

    /// <summary>Deletes a scratch folder; one left behind is harmless.</summary>
    public static void DeleteScratch(string folder)
    {
        try
        {
            if (Directory.Exists(folder))
            {
                Directory.Delete(folder, recursive: true);
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }
}
