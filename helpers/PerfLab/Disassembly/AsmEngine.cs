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
        var works = request.Runtimes
            .Select(r => new RuntimeWork<CapturedAsm>(r, ListingCache.Key(request, r.Version, _workspace.Hosts.VersionOf(r), _workspace.Hosts.GeneratorsFor(request.Source, r))))
            .ToArray();
        foreach (var work in works)
        {
            if (!request.Force && _cache.TryGet(work.CacheKey, log) is { } hit)
            {
                work.Outcome = hit;
                log($"{work.Runtime.Moniker}: cached listing (use --force to capture again)");
            }
        }

        if (works.Any(w => w.Outcome is null))
        {
            await CaptureMissingAsync(request, works, log, cancellationToken).ConfigureAwait(false);
        }

        return new AsmReport(Shown(request, works.Select(w => w.Outcome!.Methods)), request.Variant, works.Select(w => w.Outcome!.Runtime).ToArray());
    }

    // What the report is of: the names asked for, else every runtime's [Benchmark] methods.
    private static string Shown(AsmRequest request, IEnumerable<IReadOnlyList<string>> perRuntime) =>
        string.Join(", ", request.Methods.Count > 0 ? request.Methods : perRuntime.SelectMany(m => m).Distinct());

    // Compiles for every runtime (the errors name the runtimes that see them, as without a cache), but
    // starts hosts only for the runtimes with no outcome yet, storing each capture as it completes.
    private async Task CaptureMissingAsync(AsmRequest request, IReadOnlyList<RuntimeWork<CapturedAsm>> works, Action<string> log, CancellationToken cancellationToken)
    {
        await _workspace.CompileAsync(request.Source, request.SourcePath, works, cancellationToken).ConfigureAwait(false);

        // No name: every [Benchmark] method of that runtime's compile (an #if can add or remove some).
        var targets = works.Where(w => w.Outcome is null).Select(work =>
        {
            var assembly = work.Compiled!.AssemblyPath;
            var names = request.Methods.Count > 0 ? request.Methods : MethodResolver.BenchmarkMethods(assembly);
            return new CaptureTarget(work, names, names.SelectMany(m => MethodResolver.Resolve(assembly, m)).Distinct().ToArray());
        }).ToArray();
        await _workspace.LocateAsync(targets.Select(t => t.Work), measures: false, log, cancellationToken).ConfigureAwait(false);

        // Nothing is measured, but a measuring run elsewhere would be disturbed: wait for it, beside other captures.
        using var gate = await _workspace.AcquireMeasuringLockAsync(measures: false, log, cancellationToken).ConfigureAwait(false);
        var scratch = _workspace.NewScratchFolder("asm");
        try
        {
            log($"capturing the JIT's code for {Shown(request, targets.Select(t => t.Names))} on {string.Join(", ", targets.Select(t => t.Work.Runtime.Moniker))}");
            await Task.WhenAll(targets.Select(async target =>
            {
                var work = target.Work;
                var folder = Path.Combine(scratch, work.Runtime.Moniker);
                var runtimeAsm = await CaptureOneAsync(request, work.Located!, work.Compiled!, target.Methods, folder, cancellationToken).ConfigureAwait(false);
                // A malformed listing is captured once more, then refused: never shown, never cached.
                if (Problems(request, runtimeAsm, target.Methods) is [var first, ..])
                {
                    log($"{work.Runtime.Moniker}: {first}; capturing again");
                    runtimeAsm = await CaptureOneAsync(request, work.Located!, work.Compiled!, target.Methods, folder + "-again", cancellationToken).ConfigureAwait(false);
                    if (Problems(request, runtimeAsm, target.Methods) is { Count: > 0 } problems)
                    {
                        throw new PerfLabException(
                            $"The JIT's listing on {work.Runtime.Moniker} was malformed twice: {string.Join("; ", problems)}.",
                            "Capture again (--force, or the cell run again) once the machine is less busy: a method needs calls and time to reach its steady-state code.");
                    }
                }

                var capture = new CapturedAsm(target.Names, runtimeAsm);
                _cache.Put(work.CacheKey, capture);
                work.Outcome = capture;
            })).ConfigureAwait(false);
        }
        finally
        {
            Workspace.DeleteScratch(scratch);
        }
    }

    // What makes a runtime's listings unfit to show (AsmListing.Problem), one line per listing. Tier0 listings
    // stand for the first compile, every other variant for optimized code.
    // Only the methods asked for must reach their steady state: a lambda that comes along may run too rarely.
    private static List<string> Problems(AsmRequest request, RuntimeAsm asm, IReadOnlyList<ResolvedMethod> methods)
    {
        var primary = methods.Where(m => m.IsPrimary).Select(m => m.JitPrefix).ToArray();
        bool IsPrimary(AsmListing l) => primary.Any(p => l.Method.StartsWith(p, StringComparison.Ordinal) && l.Method.Length > p.Length && l.Method[p.Length] is '(' or '[');
        return asm.Listings.Select(l => l.Problem(steadyState: !request.Tier0 && IsPrimary(l)) is { } problem ? $"{l.Method}: {problem}" : null).OfType<string>().ToList();
    }

    // A runtime to capture, with the names asked for on it and what they resolve to in its compile.
    private sealed record CaptureTarget(RuntimeWork<CapturedAsm> Work, IReadOnlyList<string> Names, IReadOnlyList<ResolvedMethod> Methods);

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

        var outcome = await _workspace.Launcher.RunAsync(runtime, hostRequest, folder, environment, request.ProcessTimeout, null, null, cancellationToken).ConfigureAwait(false);
        var (process, result) = (outcome.Process, outcome.Result);
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
