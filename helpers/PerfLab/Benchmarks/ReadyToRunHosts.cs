using System.Security.Cryptography;
using PerfLab.Files;
using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// Host folders whose BenchmarkDotNet (with its Annotations), Perfolizer, Pragmastat, host and PerfLab.Inputs assemblies carry ReadyToRun code, compiled
/// by the runtime's own crossgen2 against that exact runtime, once per machine (the PerfLab home's hosts/). A launch
/// otherwise JIT-compiles some 2,500 of their methods at Tier0 before and after measuring (docs/performance.md,
/// "ReadyToRun hosts"). Only the host's own code changes: the benchmark is compiled and tiered as before.
/// <para>
/// The crossgen2 package comes from NuGet like a runtime pack, beside provisioning. Where it cannot (no package for
/// this platform, no network), launches use the host as built and the first run says so once; a failed download
/// is remembered (hosts/unavailable-VERSION.txt) until `perflab setup` or `perflab runtimes --provision` tries again.
/// </para>
/// </summary>
public sealed class ReadyToRunHosts
{
    /// <summary>What <see cref="PrepareAsync"/> does about a precompiled host that is not made yet.</summary>
    public enum HostMaking
    {
        /// <summary>Nothing: launches start the host as built (a smoke run or an asm capture, which measure nothing and should not wait seconds for a compile).</summary>
        UseIfMade,

        /// <summary>Make it, unless its crossgen2 download failed before (a run that measures: quick or full mode).</summary>
        Make,

        /// <summary>Make it, trying a failed download again (`perflab setup`, `perflab runtimes --provision`).</summary>
        MakeAgain,
    }

    /// <summary>Set to 0 to launch the host as built, without ReadyToRun code (to compare the two, as docs/performance.md does).</summary>
    public const string Variable = "PERFLAB_HOST_READYTORUN";

    // What a launch runs of the host's folder; the rest (Roslyn, ClrMD, TraceEvent) is loaded only for an asm capture, if at all.
    private static readonly string[] Precompiled =
        ["BenchmarkDotNet.dll", "BenchmarkDotNet.Annotations.dll", "Perfolizer.dll", "Pragmastat.dll", "PerfLab.Host.dll", HostLayout.InputsAssembly];

    // crossgen2 is served for linux-x64 only on the course's registry (docs/dependencies.md); elsewhere the host runs as built.
    private const string SupportedPlatform = "linux-x64";
    private static readonly TimeSpan RestoreTimeout = TimeSpan.FromMinutes(10);
    private static readonly TimeSpan CompileTimeout = TimeSpan.FromMinutes(5);

    private readonly PerfLabHome _home;
    private readonly HostLayout _hosts;
    private readonly DotnetInstallation _sdk;
    private readonly string? _packageSource;
    private readonly string? _packagesFolder;
    private readonly Dictionary<string, string> _prepared = [];

    // Each built host's key, hashed once per process (the built files do not change under a running process).
    private readonly Dictionary<string, string> _keys = [];

    /// <param name="home">Where the precompiled folders and the download projects live.</param>
    /// <param name="hosts">The host as built.</param>
    /// <param name="sdk">Whose muxer restores the crossgen2 package.</param>
    /// <param name="packageSource">The only package source (an offline kit's folder); null uses the user's NuGet configuration.</param>
    /// <param name="packagesFolder">Where the package goes; null: the user's NuGet cache.</param>
    public ReadyToRunHosts(PerfLabHome home, HostLayout hosts, DotnetInstallation sdk, string? packageSource = null, string? packagesFolder = null)
    {
        _home = home;
        _hosts = hosts;
        _sdk = sdk;
        _packageSource = packageSource;
        _packagesFolder = packagesFolder;
    }

    /// <summary>The crossgen2 package that precompiles the host on <paramref name="platform"/> (a runtime identifier); null where the host runs as built.</summary>
    public static string? CrossgenPackIdFor(string platform) =>
        platform == SupportedPlatform ? "Microsoft.NETCore.App.Crossgen2." + platform : null;

    /// <summary>Whether this platform and the environment (<see cref="Variable"/>) let launches use ReadyToRun hosts.</summary>
    public static bool Enabled => RuntimeProvisioner.RuntimeIdentifier == SupportedPlatform && Environment.GetEnvironmentVariable(Variable) != "0";

    /// <summary>The host assembly a launch on <paramref name="runtime"/> starts: the precompiled one once prepared, else the host as built.</summary>
    public string HostAssembly(PinnedRuntime runtime)
    {
        lock (_prepared)
        {
            return _prepared.TryGetValue(runtime.Moniker, out var folder) ? Path.Combine(folder, "PerfLab.Host.dll") : _hosts.HostAssembly(runtime);
        }
    }

    /// <summary>
    /// Locates each of <paramref name="runtimes"/>, provisioning the missing ones, and prepares its host as
    /// <paramref name="making"/> says (<see cref="PrepareAsync"/>), the runtimes side by side: one after another, a fresh
    /// machine's first quick cell waited 15 s for three of them while crossgen2 kept 1.5 of its 2 cores busy, and an
    /// installed runtime's host need not wait for another runtime's download. Downloads take turns here (so none says it
    /// waits for "another process": the provisioner's lock keeps other processes out); each runtime's host has a lock
    /// of its own. The lines of all of them reach <paramref name="log"/> one at a time.
    /// </summary>
    /// <returns>Each runtime, located, in the order given.</returns>
    public async Task<LocatedRuntime[]> PrepareAllAsync(RuntimeLocator locator, IReadOnlyList<PinnedRuntime> runtimes, Action<string> log, HostMaking making, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(locator);
        ArgumentNullException.ThrowIfNull(runtimes);
        ArgumentNullException.ThrowIfNull(log);
        var lines = new Lock();
        void Say(string line)
        {
            lock (lines)
            {
                log(line);
            }
        }

        using var downloads = new SemaphoreSlim(1);
        return await Task.WhenAll(runtimes.Select(async runtime =>
        {
            var located = locator.Locate(runtime);
            if (located.Source == RuntimeSource.Missing)
            {
                await downloads.WaitAsync(cancellationToken).ConfigureAwait(false);
                try
                {
                    located = await locator.EnsureAsync(runtime, Say, cancellationToken).ConfigureAwait(false);
                }
                finally
                {
                    downloads.Release();
                }
            }

            await PrepareAsync(located, Say, making, cancellationToken).ConfigureAwait(false);
            return located;
        })).ConfigureAwait(false);
    }

    /// <summary>
    /// Finds, or as <paramref name="making"/> says makes, the precompiled host for <paramref name="runtime"/>; on any
    /// failure, logs one line and leaves launches on the host as built. Never throws but for cancellation.
    /// </summary>
    /// <param name="runtime">A located runtime (its framework is what crossgen2 compiles against).</param>
    /// <param name="log">Receives a line per step, and why the host runs as built when it does.</param>
    /// <param name="making">Whether a missing host is made here.</param>
    /// <param name="cancellationToken">Stops the download or the compile (tree killed).</param>
    public async Task PrepareAsync(LocatedRuntime runtime, Action<string> log, HostMaking making, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runtime);
        ArgumentNullException.ThrowIfNull(log);
        if (!Enabled || runtime.Path is not { } framework)
        {
            return;
        }

        lock (_prepared)
        {
            if (_prepared.ContainsKey(runtime.Pinned.Moniker))
            {
                return;
            }
        }

        var (built, target, unavailable) = PathsFor(runtime.Pinned);
        if (!Directory.Exists(target))
        {
            if (making == HostMaking.UseIfMade || (File.Exists(unavailable) && making != HostMaking.MakeAgain))
            {
                Use(runtime, null);
                return;
            }

            using var gate = await FileLock.AcquireAsync(
                Path.Combine(_home.Locks, $"hosts-{runtime.Pinned.Moniker}.lock"),
                shared: false,
                holder => log($"waiting for another PerfLab process to finish precompiling the host ({holder})"),
                cancellationToken).ConfigureAwait(false);
            if (!Directory.Exists(target))
            {
                var failure = await CompileAsync(runtime, framework, built, target, log, cancellationToken).ConfigureAwait(false);
                if (failure is not null)
                {
                    log($"launches on .NET {runtime.Pinned.Version} use the host as built, without ReadyToRun code ({failure.Reason}); each takes about 0.3 s longer");
                    if (failure.Download)
                    {
                        Directory.CreateDirectory(_home.ReadyToRunHosts);
                        await AtomicFile.WriteAllTextAsync(unavailable, $"{failure.Reason}{Environment.NewLine}(written {DateTime.UtcNow:u}; `perflab runtimes --provision` tries again){Environment.NewLine}", cancellationToken).ConfigureAwait(false);
                    }

                    Use(runtime, null);
                    return;
                }

                File.Delete(unavailable);
            }
        }

        Use(runtime, target);
        PruneOthers(runtime.Pinned, target);
    }

    // Marks the folder used now and removes this runtime's folders of other host builds left unused for a day (another
    // checkout still running its own build keeps its folder by using it).
    private void PruneOthers(PinnedRuntime runtime, string current)
    {
        try
        {
            Directory.SetLastWriteTimeUtc(current, DateTime.UtcNow);
            foreach (var other in Directory.EnumerateDirectories(_home.ReadyToRunHosts, runtime.Moniker + "-*"))
            {
                if (other != current && Directory.GetLastWriteTimeUtc(other) < DateTime.UtcNow.AddDays(-1))
                {
                    Directory.Delete(other, recursive: true);
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Another process is using or removing it: left for a later run.
        }
    }

    /// <summary>
    /// Where the precompiled host of <paramref name="runtime"/> stands, for `perflab doctor`: made, or not made yet, or
    /// the remembered reason its crossgen2 could not be had (null when none is remembered).
    /// </summary>
    public (bool Made, string? Unavailable) StatusOf(PinnedRuntime runtime)
    {
        var (_, target, unavailable) = PathsFor(runtime);
        return (Directory.Exists(target), File.Exists(unavailable) ? File.ReadLines(unavailable).FirstOrDefault() : null);
    }

    // The host as built, its precompiled folder (keyed by the built files), and the file remembering a failed download.
    private (string Built, string Target, string Unavailable) PathsFor(PinnedRuntime runtime)
    {
        var built = Path.GetDirectoryName(_hosts.HostAssembly(runtime))!;
        string key;
        lock (_keys)
        {
            if (!_keys.TryGetValue(built, out key!))
            {
                key = KeyOf(built);
                _keys[built] = key;
            }
        }

        return (built,
            Path.Combine(_home.ReadyToRunHosts, $"{runtime.Moniker}-{runtime.Version}-{key}"),
            Path.Combine(_home.ReadyToRunHosts, $"unavailable-{runtime.Version}.txt"));
    }

    private void Use(LocatedRuntime runtime, string? folder)
    {
        lock (_prepared)
        {
            if (folder is null)
            {
                _prepared.Remove(runtime.Pinned.Moniker);
            }
            else
            {
                _prepared[runtime.Pinned.Moniker] = folder;
            }
        }
    }

    private sealed record Failure(string Reason, bool Download);

    // Restores the runtime's crossgen2, then builds the folder in a staging sibling: the built host's files, the
    // precompiled assemblies in place of theirs; renamed into place only when whole.
    private async Task<Failure?> CompileAsync(LocatedRuntime runtime, string framework, string built, string target, Action<string> log, CancellationToken cancellationToken)
    {
        var pack = new PackageIdentity(CrossgenPackIdFor(SupportedPlatform)!, runtime.Pinned.Version);
        log($"precompiling the host for .NET {runtime.Pinned.Version} (ReadyToRun, once per machine; crossgen2 from {_packageSource ?? "your NuGet source"})");
        var download = await PackageDownload.RestoreAsync(
            _sdk, Path.Combine(_home.Provisioning, "crossgen2-" + runtime.Pinned.Version), [pack], _packagesFolder, _packageSource, RestoreTimeout, cancellationToken).ConfigureAwait(false);
        if (!download.Succeeded)
        {
            var why = download.Process.TimedOut ? "its download timed out"
                : download.SourceUnreachable ? "the package source is unreachable"
                : download.SourceLacksPackage ? $"the package source has no {pack.Id} {pack.Version}"
                : $"dotnet restore of {pack.Id} {pack.Version} failed: {download.ErrorLines.FirstOrDefault()}";
            return new Failure(why, Download: true);
        }

        var compiler = Path.Combine(pack.FolderIn(download.PackagesFolder!), "tools", "crossgen2");
        if (!File.Exists(compiler))
        {
            return new Failure($"{pack.Id} {pack.Version} has no tools/crossgen2", Download: true);
        }

        Directory.CreateDirectory(_home.ReadyToRunHosts);
        var staging = Path.Combine(_home.ReadyToRunHosts, "." + Path.GetFileName(target) + "-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(staging);
        try
        {
            foreach (var entry in Directory.EnumerateFileSystemEntries(built))
            {
                var name = Path.GetFileName(entry);
                if (!Precompiled.Contains(name, StringComparer.Ordinal))
                {
                    Copy(entry, Path.Combine(staging, name));
                }
            }

            foreach (var assembly in Precompiled)
            {
                var result = await ChildProcess.RunAsync(
                    compiler,
                    [Path.Combine(built, assembly), "-o", Path.Combine(staging, assembly), "-r", Path.Combine(framework, "*.dll"), "-r", Path.Combine(built, "*.dll"),
                        "--targetos", "linux", "--targetarch", "x64", "-O"],
                    environment: null,
                    staging,
                    CompileTimeout,
                    onOutputLine: null,
                    cancellationToken).ConfigureAwait(false);
                if (result.TimedOut || result.ExitCode != 0)
                {
                    var output = (result.StandardError + result.StandardOutput).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
                    return new Failure($"crossgen2 failed on {assembly}: {(result.TimedOut ? "timed out" : output.LastOrDefault() ?? $"exit code {result.ExitCode}")}", Download: false);
                }
            }

            try
            {
                Directory.Move(staging, target);
            }
            catch (IOException) when (Directory.Exists(target))
            {
                // Made meanwhile by a process of an older PerfLab, which took one lock for every runtime: the same files.
            }

            log($"precompiled the host for .NET {runtime.Pinned.Version} into {target}");
            return null;
        }
        finally
        {
            if (Directory.Exists(staging))
            {
                Directory.Delete(staging, recursive: true);
            }
        }
    }

    // A copy, not links: a link would follow the built folder when a later build changes it, under images compiled
    // from the old one.
    private static void Copy(string source, string destination)
    {
        if (File.Exists(source))
        {
            File.Copy(source, destination);
            return;
        }

        foreach (var file in Directory.EnumerateFiles(source, "*", SearchOption.AllDirectories))
        {
            var copy = Path.Combine(destination, Path.GetRelativePath(source, file));
            Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
            File.Copy(file, copy);
        }
    }

    // The built host's identity: its precompiled assemblies and its dependency manifest. A rebuild that changes either
    // gets a folder of its own (PruneOthers removes the old ones).
    private static string KeyOf(string built)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        foreach (var file in Precompiled.Append("PerfLab.Host.deps.json"))
        {
            hash.AppendData(SHA256.HashData(File.ReadAllBytes(Path.Combine(built, file))));
        }

        return Convert.ToHexStringLower(hash.GetHashAndReset())[..16];
    }
}
