using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Runtimes;

namespace PerfLab.Disassembly;

/// <summary>
/// Shows the code the JIT generates for a reader's method on each runtime: compiles the source,
/// resolves the name to the JIT's names, runs the host on every runtime with DOTNET_JitDisasm and
/// DOTNET_JitStdOutFile (driving the benchmarks until optimized code exists, without measuring), and
/// keeps the last optimized listing of each method. Each runtime's listings are cached: an identical
/// request starts no process for that runtime.
/// </summary>
public sealed class AsmEngine
{
    private readonly Workspace _workspace;
    private readonly ListingCache _cache;

    /// <summary>Creates an engine over a PerfLab home.</summary>
    /// <param name="home">Where runtimes, builds and the cache live; null uses <see cref="PerfLabHome.Default"/>.</param>
    public AsmEngine(PerfLabHome? home = null)
    {
        _workspace = new Workspace(home);
        _cache = new ListingCache(_workspace.Home.AsmCache);
    }

    /// <summary>Captures the listings, or reads them from the cache (unless <see cref="AsmRequest.Force"/>).</summary>
    /// <param name="request">What to show.</param>
    /// <param name="log">Receives progress lines; may be null.</param>
    /// <param name="cancellationToken">Stops and kills the host processes.</param>
    /// <exception cref="PerfLabException">Compile error, unknown or ambiguous name, a benchmark that throws or hangs.</exception>
    public async Task<AsmReport> CaptureAsync(AsmRequest request, Action<string>? log = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (request.Tier0 && request.FullOpts)
        {
            throw new PerfLabException("Tier0 and FullOpts exclude each other: with tiering off the JIT never produces Tier0 code.", "Ask for one of them.");
        }

        log ??= _ => { };
        var captures = new CapturedAsm?[request.Runtimes.Count];
        var keys = new string[request.Runtimes.Count];
        for (var i = 0; i < request.Runtimes.Count; i++)
        {
            var runtime = request.Runtimes[i];
            keys[i] = ListingCache.Key(request, runtime.Version, _workspace.Hosts.VersionOf(runtime), _workspace.Hosts.GeneratorsFor(request.Source, runtime));
            if (!request.Force && _cache.TryGet(keys[i], log) is { } hit)
            {
                captures[i] = hit;
                log($"{runtime.Moniker}: cached listing (use --force to capture again)");
            }
        }

        var missing = Enumerable.Range(0, request.Runtimes.Count).Where(i => captures[i] is null).ToArray();
        if (missing.Length > 0)
        {
            await CaptureMissingAsync(request, missing, keys, captures, log, cancellationToken).ConfigureAwait(false);
        }

        return new AsmReport(Shown(request, captures.Select(c => c!.Methods)), request.Variant, captures.Select(c => c!.Runtime).ToArray());
    }

    // What the report is of: the names asked for, else every runtime's [Benchmark] methods.
    private static string Shown(AsmRequest request, IEnumerable<IReadOnlyList<string>> perRuntime) =>
        string.Join(", ", request.Methods.Count > 0 ? request.Methods : perRuntime.SelectMany(m => m).Distinct());

    // Compiles for every runtime (the errors name the runtimes that see them, as without a cache), but
    // starts hosts only for the runtimes at `missing`, storing each capture as it completes.
    private async Task CaptureMissingAsync(AsmRequest request, int[] missing, string[] keys, CapturedAsm?[] captures, Action<string> log, CancellationToken cancellationToken)
    {
        var compiled = await _workspace.Compiler.CompileAsync(request.Source, request.SourcePath, request.Runtimes, cancellationToken).ConfigureAwait(false);

        // No name: every [Benchmark] method of that runtime's compile (an #if can add or remove some).
        var names = missing.Select(i => request.Methods.Count > 0 ? request.Methods : MethodResolver.BenchmarkMethods(compiled[i].AssemblyPath)).ToArray();
        var methods = missing.Select((i, j) => names[j].SelectMany(m => MethodResolver.Resolve(compiled[i].AssemblyPath, m)).Distinct().ToArray()).ToArray();
        var located = await _workspace.EnsureRuntimesAsync(missing.Select(i => request.Runtimes[i]), log, cancellationToken).ConfigureAwait(false);

        // Nothing is measured, but a measuring run elsewhere would be disturbed: share its lock.
        using var gate = await _workspace.AcquireMeasuringLockAsync(log, cancellationToken).ConfigureAwait(false);
        var work = _workspace.NewScratchFolder("asm");
        try
        {
            log($"capturing the JIT's code for {Shown(request, names)} on {string.Join(", ", located.Select(r => r.Pinned.Moniker))}");
            await Task.WhenAll(missing.Select(async (i, j) =>
            {
                var capture = new CapturedAsm(names[j], await CaptureOneAsync(request, located[j], compiled[i], methods[j], Path.Combine(work, located[j].Pinned.Moniker), cancellationToken).ConfigureAwait(false));
                _cache.Put(keys[i], capture);
                captures[i] = capture;
            })).ConfigureAwait(false);
        }
        finally
        {
            Workspace.DeleteScratch(work);
        }
    }

    private async Task<RuntimeAsm> CaptureOneAsync(AsmRequest request, LocatedRuntime runtime, CompiledBenchmark compiled, IReadOnlyList<ResolvedMethod> methods, string folder, CancellationToken cancellationToken)
    {
        var listingPath = Path.Combine(folder, "jit-listing.txt");
        var primary = methods.Where(m => m.IsPrimary).Select(m => m.JitPrefix).Distinct().ToArray();
        var hostRequest = new HostRequest(
            compiled.AssemblyPath,
            0,
            BenchmarkMode.Smoke,
            null,
            Path.Combine(folder, "result.json"),
            Path.Combine(folder, "artifacts"),
            new DisasmRequest(primary, listingPath, request.DriveTimeout.TotalSeconds));
        var environment = new Dictionary<string, string>(request.Environment)
        {
            ["DOTNET_JitDisasm"] = string.Join(' ', methods.Select(m => m.MetadataName).Distinct()),
            ["DOTNET_JitStdOutFile"] = listingPath,
        };
        if (request.FullOpts)
        {
            environment["DOTNET_TieredCompilation"] = "0";
        }

        if (request.NoPgo)
        {
            environment["DOTNET_TieredPGO"] = "0";
        }

        var (process, result) = await _workspace.Launcher.RunAsync(runtime, hostRequest, folder, environment, request.ProcessTimeout, null, cancellationToken).ConfigureAwait(false);
        var where = $"on {runtime.Pinned.Moniker}";
        if (process.TimedOut)
        {
            throw new PerfLabException(
                $"The benchmark did not return within {request.ProcessTimeout.TotalSeconds:F0} s {where}; its process tree was killed.",
                "Check the benchmark for an endless loop.");
        }

        if (result is null || result.Error is not null)
        {
            throw new PerfLabException(
                result?.Error is { } error ? $"The benchmark threw {where}: {error}" : $"The host process exited with code {process.ExitCode} {where} without a result.",
                "Fix the benchmark so one call of it completes, then ask for its asm again.",
                result is null ? process.StandardError.Split('\n', StringSplitOptions.RemoveEmptyEntries).TakeLast(10).ToArray() : null);
        }

        var all = File.Exists(listingPath) ? AsmListing.ParseAll(await File.ReadAllTextAsync(listingPath, cancellationToken).ConfigureAwait(false)) : [];
        var chosen = new List<AsmListing>();
        var notCompiled = new List<string>();
        foreach (var method in methods)
        {
            var mine = all.Where(l => l.Method.StartsWith(method.JitPrefix, StringComparison.Ordinal) && l.Method.Length > method.JitPrefix.Length && l.Method[method.JitPrefix.Length] is '(' or '[').ToArray();
            if (mine.Length == 0)
            {
                notCompiled.Add(method.DisplayName);
                continue;
            }

            // Per overload (full JIT name): the first Tier0 code when asked for; otherwise the last
            // steady-state code, else the last OSR code, else the last of all.
            foreach (var group in mine.GroupBy(l => l.Method))
            {
                var listings = group.ToArray();
                chosen.Add(request.Tier0
                    ? listings.FirstOrDefault(l => l.Tier == "Tier0") ?? listings[0]
                    : listings.LastOrDefault(l => l.Tier is "Tier1" or "FullOpts")
                        ?? listings.LastOrDefault(l => l.IsOptimized)
                        ?? listings[^1]);
            }
        }

        return new RuntimeAsm(runtime.Pinned.Moniker, result.Runtime.Version, chosen.DistinctBy(l => l.Method).ToArray(), notCompiled);
    }
}
