using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Disassembly;
using PerfLab.GeneratedRegexSource;
using PerfLab.Notebooks.Execution;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Notebooks;

/// <summary>
/// What the notebooks call: the setup check, and the runs of a benchmark class written in the same
/// cell, out of process on .NET 8, 9 and 10. Works in the course's kernel, in its headless runner and
/// in .NET Interactive; the results display themselves as table and charts (or as text elsewhere).
/// </summary>
public static class Lab
{
    private static readonly Lazy<BenchmarkEngine> Benchmarks = new(() => new BenchmarkEngine());
    private static readonly Lazy<AsmEngine> Disassembler = new(() => new AsmEngine());

    /// <summary>The benchmark mode in effect: smoke, quick or full (see <see cref="ModeChoice"/>).</summary>
    public static string Mode => ModeChoice.Name(CurrentMode().Mode);

    /// <summary>Checks the helpers can run benchmarks and says what they will use: runtimes, mode, kernel.</summary>
    /// <exception cref="PerfLabException">The benchmark host is not built, or PERFLAB_MODE is invalid.</exception>
    public static LabInfo Setup()
    {
        var mode = CurrentMode();
        var hosts = new HostLayout();
        var locator = new RuntimeLocator(PerfLabHome.Default());
        var runtimes = new List<LabRuntime>();
        foreach (var runtime in RuntimeCatalog.All)
        {
            _ = hosts.HostAssembly(runtime); // Throws with the build command when the host is missing.
            runtimes.Add(new LabRuntime(runtime.Moniker, runtime.Version, locator.Locate(runtime).Source));
        }

        return new LabInfo(
            typeof(Lab).Assembly.GetName().Version?.ToString() ?? "?",
            KernelAdapter.AttachToCurrent(),
            mode.Mode,
            mode.Origin,
            runtimes);
    }

    /// <summary>
    /// Runs the BenchmarkDotNet class <typeparamref name="T"/>, written in the running cell, on each
    /// runtime: in processes of its own (in quick and full mode one per case and launch), one runtime after another. Progress prints as it goes;
    /// an unchanged cell is answered from the cache.
    /// </summary>
    /// <typeparam name="T">The benchmark class, declared in this cell or in an earlier cell that ran it with Lab.</typeparam>
    /// <param name="runtimes">Monikers in order, e.g. ["net8.0", "net10.0"]; the first is the ratio baseline. Default: every runtime the course pins (RuntimeCatalog).</param>
    /// <param name="mode">smoke, quick or full; default: the runner's --mode, else PERFLAB_MODE, else quick.</param>
    /// <param name="force">Run even when a cached result exists.</param>
    /// <param name="env">NAME=VALUE environment variables for the benchmark processes, e.g. DOTNET_TieredPGO=0.</param>
    /// <param name="caseTimeoutSeconds">Kill a case's process after this many seconds (default depends on the mode).</param>
    /// <param name="launches">Processes per case and runtime; default the mode's (quick mode's several give each ratio its interval).
    /// 1 is enough for a cell that reads only bytes per call, which do not change from one process to the next.</param>
    /// <returns>The results (they display as a table and charts).</returns>
    /// <exception cref="PerfLabException">The run could not happen; the message says why and what to do.</exception>
    public static async Task<BenchmarkRun> RunAsync<T>(string[]? runtimes = null, string? mode = null, bool force = false, string[]? env = null, double? caseTimeoutSeconds = null, int? launches = null)
    {
        var (cell, cellName, cancellation) = CurrentCell("RunAsync");
        var name = typeof(T).Name;
        var (source, sourceCell) = DeclarationOf<T>(cell, cellName);
        var requestedMode = mode is null ? CurrentMode().Mode : ModeChoice.Parse(mode, nameof(mode));
        // What answers this call is the running session's (the reference job records, the site replays); elsewhere it is measured.
        var policy = CellContext.Current?.Policy ?? BenchmarkPolicy.Measure;
        var request = new BenchmarkRequest
        {
            Source = source,
            SourcePath = sourceCell,
            Runtimes = RuntimeCatalog.FindAll(runtimes),
            Mode = requestedMode,
            Filter = [name + ".*"],
            Environment = BenchmarkRequest.ParseEnvironment(env ?? []),
            Force = force || policy.Recorder is not null,
            CaseTimeout = caseTimeoutSeconds is { } seconds ? TimeSpan.FromSeconds(seconds) : null,
            Launches = launches ?? policy.DefaultLaunches,
            // A smoke run shares the lock anyway and its result stays cached.
            ReadsOnlyBytes = requestedMode != BenchmarkMode.Smoke && CellContext.Current?.RunsReadOnlyBytes == true,
        };
        var replayed = policy.Replayed(request);
        // The table so far and a progress line show in place where the kernel can replace an output: the course
        // kernel's cell, or .NET Interactive's through its adapter.
        var running = CellContext.Current;
        var progress = new NotebookProgress(ConsoleRouter.Progress, running is null ? KernelAdapter.InteractiveShow : running.Show, running?.Progress);
        BenchmarkRun run;
        try
        {
            run = replayed ?? await Benchmarks.Value.RunAsync(request, progress, cancellation).ConfigureAwait(false);
        }
        finally
        {
            progress.Finish();
        }

        ConsoleRouter.Flush();
        if (replayed is null)
        {
            policy.Recorder?.Invoke(request, run);
        }

        ReportFailedCases(run, timeLimitSet: caseTimeoutSeconds is not null);
        return run;
    }

    // A case that threw, or ran past a limit the cell did not set, fails the cell: the table shows the error in
    // full, and the run that executes the notebook (perflab run, a Jupyter client, CI) must not call it good. A
    // case stopped at the cell's own caseTimeoutSeconds is what the cell asked for.
    private static void ReportFailedCases(BenchmarkRun run, bool timeLimitSet)
    {
        var failed = run.Results
            .Where(r => r.Error is not null && !(r.TimedOut && timeLimitSet))
            .Select(r => $"{r.Type[(r.Type.LastIndexOfAny(['.', '+']) + 1)..]}.{r.DisplayName} on {r.Runtime}: {BenchmarkResult.FirstLine(r.Error!)}")
            .ToArray();
        if (failed.Length == 0)
        {
            return;
        }

        if (CellContext.Current is { } cell)
        {
            cell.ReportFailedCases(failed);
        }
        else
        {
            // .NET Interactive: no cell of ours to fail, so the lines go where its clients look for errors.
            foreach (var line in failed)
            {
                Console.Error.WriteLine($"error: benchmark case {line}");
            }
        }
    }

    /// <summary>
    /// The code the JIT generates for methods of <typeparamref name="T"/> (written in the running cell) on
    /// .NET 8, 9 and 10, in steady state, side by side with what changed.
    /// </summary>
    /// <typeparam name="T">The class, declared in this cell or in an earlier cell that ran it with Lab.</typeparam>
    /// <param name="methods">Method names (Sum, Sum(int[]), a property...); none shows every [Benchmark] method.</param>
    /// <returns>The listings (they display side by side).</returns>
    /// <exception cref="PerfLabException">The capture could not happen; the message says why and what to do.</exception>
    public static Task<AsmReport> AsmAsync<T>(params string[] methods) => AsmAsync<T>(AsmVariant.SteadyState, methods);

    /// <summary>
    /// The code the JIT generates for methods of <typeparamref name="T"/> on .NET 8, 9 and 10, as
    /// <paramref name="variant"/> compiles it: steady state, tiering off (what SharpLab and Compiler
    /// Explorer show), steady state without dynamic PGO, or the first (Tier0) code.
    /// </summary>
    /// <typeparam name="T">The class, declared in this cell or in an earlier cell that ran it with Lab.</typeparam>
    /// <param name="variant">Which code to show.</param>
    /// <param name="methods">Method names; none shows every [Benchmark] method.</param>
    /// <returns>The listings (they display side by side).</returns>
    /// <exception cref="PerfLabException">The capture could not happen; the message says why and what to do.</exception>
    public static Task<AsmReport> AsmAsync<T>(AsmVariant variant, params string[] methods) => AsmAsync<T>(variant, [], methods);

    /// <summary>
    /// The code the JIT generates for methods of <typeparamref name="T"/> on .NET 8, 9 and 10, with
    /// environment variables set on the processes, e.g. ["DOTNET_EnableAVX512F=0"] to see the code for a
    /// CPU without AVX-512.
    /// </summary>
    /// <typeparam name="T">The class, declared in this cell or in an earlier cell that ran it with Lab.</typeparam>
    /// <param name="variant">Which code to show.</param>
    /// <param name="env">NAME=VALUE pairs.</param>
    /// <param name="methods">Method names; none shows every [Benchmark] method.</param>
    /// <returns>The listings (they display side by side).</returns>
    /// <exception cref="PerfLabException">The capture could not happen, or a pair is not NAME=VALUE; the message says why and what to do.</exception>
    public static Task<AsmReport> AsmAsync<T>(AsmVariant variant, string[] env, params string[] methods) => AsmAsync<T>(variant, env, methods, open: null);

    /// <summary>
    /// The code the JIT generates for methods of <typeparamref name="T"/> on .NET 8, 9 and 10, with the listing of
    /// <paramref name="open"/> first and open and the others folded, e.g. <c>Lab.AsmAsync&lt;Loops&gt;(open: "RankSpan")</c>.
    /// </summary>
    /// <typeparam name="T">The class, declared in this cell or in an earlier cell that ran it with Lab.</typeparam>
    /// <param name="variant">Which code to show.</param>
    /// <param name="env">NAME=VALUE pairs; none by default.</param>
    /// <param name="methods">Method names; none shows every [Benchmark] method.</param>
    /// <param name="open">The method whose listing the cell is about; default: the one whose code differs most between runtimes.</param>
    /// <returns>The listings (they display side by side).</returns>
    /// <exception cref="PerfLabException">The capture could not happen, a pair is not NAME=VALUE, or <paramref name="open"/> names no listed method.</exception>
    public static async Task<AsmReport> AsmAsync<T>(AsmVariant variant = AsmVariant.SteadyState, string[]? env = null, string[]? methods = null, string? open = null)
    {
        var (cell, cellName, cancellation) = CurrentCell("AsmAsync");
        var name = typeof(T).Name;
        var (source, sourceCell) = DeclarationOf<T>(cell, cellName);
        var request = new AsmRequest
        {
            Source = source,
            SourcePath = sourceCell,
            Methods = (methods ?? []).Select(Qualified).ToArray(),
            FullOpts = variant == AsmVariant.FullOpts,
            NoPgo = variant == AsmVariant.NoPgo,
            Tier0 = variant == AsmVariant.Tier0,
            Environment = BenchmarkRequest.ParseEnvironment(env ?? []),
        };
        var report = await Disassembler.Value.CaptureAsync(request, ProgressLines(), cancellation).ConfigureAwait(false);
        return open is null ? report : report.Opening(Qualified(open));

        // A bare method name is T's; "Tally.Add" names a class of its own.
        string Qualified(string method) => method.Contains('.', StringComparison.Ordinal) ? method : name + "." + method;
    }

    /// <summary>
    /// Which vector widths and instruction sets (AVX2, AVX-512, BMI2, AdvSimd...) each runtime's JIT uses on
    /// this machine, read from the code it compiles for a probe; with <paramref name="env"/>, as those
    /// settings change it (e.g. DOTNET_EnableAVX512F=0).
    /// </summary>
    /// <param name="env">NAME=VALUE pairs for the runtimes' processes.</param>
    /// <returns>A feature-by-runtime table (it displays itself).</returns>
    /// <exception cref="PerfLabException">The probe could not run; the message says why and what to do.</exception>
    public static async Task<InstructionSets> InstructionSetsAsync(string[]? env = null)
    {
        var cancellation = CellSource.Current()?.Cancellation ?? CancellationToken.None;
        var environment = BenchmarkRequest.ParseEnvironment(env ?? []);
        var request = new AsmRequest
        {
            Source = InstructionSetProbe.Source,
            SourcePath = "instruction-set-probe.cs",
            Environment = environment,
        };
        var report = await Disassembler.Value.CaptureAsync(request, ProgressLines(), cancellation).ConfigureAwait(false);
        ConsoleRouter.Flush();
        return InstructionSetProbe.Read(report, environment.Select(e => $"{e.Key}={e.Value}").ToArray(), System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture);
    }

    /// <summary>
    /// The C# that <c>[GeneratedRegex(pattern, options)]</c> emits on .NET 8, 9 and 10 (each runtime's own
    /// source generator): the pattern explained as a tree, the methods that find where a match can start and
    /// match at a position, and the helpers they call, side by side with what changed between runtimes.
    /// </summary>
    /// <param name="pattern">The regular expression, e.g. @"\w*\p{Sm}".</param>
    /// <param name="options">Its options, as in the attribute.</param>
    /// <param name="runtimes">Monikers, oldest first, e.g. ["net9.0", "net10.0"]; default: every runtime the course pins (RuntimeCatalog).</param>
    /// <returns>The generated source (it displays side by side).</returns>
    /// <exception cref="PerfLabException">The pattern is invalid (the parser's message says where), a runtime is unknown, or the helpers are not built.</exception>
    public static RegexSourceReport RegexSource(string pattern, RegexOptions options = RegexOptions.None, string[]? runtimes = null) =>
        GeneratedRegexSource.RegexSource.Generate(pattern, options, RuntimeCatalog.FindAll(runtimes), CellSource.Current()?.Cancellation ?? CancellationToken.None);

    /// <summary>
    /// When a structure that is dearer to build but cheaper to read pays off (a frozen collection against a
    /// dictionary, say): per runtime of <paramref name="run"/>, the reads per build from which its build plus
    /// its reads cost less, and a chart of cost per read against reads per build.
    /// </summary>
    /// <param name="run">A run that measured all four methods.</param>
    /// <param name="readsPerCall">How many reads one call of each read method makes.</param>
    /// <param name="plain">The cheap-to-build structure: (name, build method, read method).</param>
    /// <param name="prepared">The dear-to-build structure: (name, build method, read method).</param>
    /// <returns>The points (they display themselves).</returns>
    /// <exception cref="PerfLabException">A method is not in the run, or no runtime measured all four.</exception>
    public static BreakEven BreakEven(BenchmarkRun run, int readsPerCall, (string Name, string Build, string Read) plain, (string Name, string Build, string Read) prepared) =>
        Results.BreakEven.From(run, new BreakEvenSide(plain.Name, plain.Build, plain.Read), new BreakEvenSide(prepared.Name, prepared.Build, prepared.Read), readsPerCall);

    // Where a disassembly's progress lines go: the cell's record (a report folds them away) and, where the runner shows
    // the helpers' progress itself (perflab run on a terminal), there too, as lines.
    private static Action<string> ProgressLines()
    {
        var observer = CellContext.Current?.Progress;
        var clock = Stopwatch.StartNew();
        return line =>
        {
            ConsoleRouter.Progress.WriteLine(line);
            observer?.Report(new RunProgress("asm", clock.Elapsed, line));
        };
    }

    // The compilable text of the cell that declares T: this cell, or an earlier one that ran T through
    // Lab, so a later cell can show T's assembly without repeating the class. Keyed by the Type itself:
    // a cell that declares the class again makes a new Type, and that cell's text wins.
    private static (string Source, string CellName) DeclarationOf<T>(string cell, string cellName)
    {
        if (BenchmarkCell.TryExtract(cell, typeof(T).Name) is { } here)
        {
            Declarations.AddOrUpdate(typeof(T), new Declaration(here, cellName));
            return (here, cellName);
        }

        return Declarations.TryGetValue(typeof(T), out var earlier)
            ? (earlier.Source, earlier.CellName)
            : (BenchmarkCell.Extract(cell, typeof(T).Name, cellName), cellName);
    }

    private sealed record Declaration(string Source, string CellName);

    private static readonly ConditionalWeakTable<Type, Declaration> Declarations = new();

    // The mode the running session resolved once; in another kernel (no session), PERFLAB_MODE or the default.
    private static ModeChoice CurrentMode() => CellContext.Current?.Mode ?? ModeChoice.Resolve(option: null);

    private static (string Source, string CellName, CancellationToken Cancellation) CurrentCell(string method) =>
        CellSource.Current() ?? throw new PerfLabException(
            $"Lab.{method} needs the text of the cell it runs in, and no notebook kernel is running this code.",
            "Call it from a notebook cell (the course's kernel, `perflab run`, or Polyglot Notebooks); for a .cs file use `perflab bench FILE.cs`.");
}
