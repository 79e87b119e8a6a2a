using System.Collections.Immutable;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Scripting;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Scripting;
using Microsoft.CodeAnalysis.Scripting.Hosting;
using PerfLab.Benchmarks;
using PerfLab.Notebooks.Documents;
using PerfLab.Views.Html;

namespace PerfLab.Notebooks.Execution;

/// <summary>How one cell ended.</summary>
/// <param name="ExecutionCount">The cell's number in this session (1, 2, ...).</param>
/// <param name="Succeeded">No compile error, exception, interrupt or failed benchmark case.</param>
/// <param name="Duration">Time from submit to the end.</param>
/// <param name="FailedCases">Benchmark cases of the cell that failed (see <see cref="CellContext"/>).</param>
public sealed record CellOutcome(int ExecutionCount, bool Succeeded, TimeSpan Duration, int FailedCases = 0);

/// <summary>
/// A C# notebook session: cells are C# script (Roslyn scripting), each continuing the state of the
/// last one that compiled. Console output streams into the running cell, the value of a trailing
/// expression is displayed, compile errors point at the cell's lines, an exception ends the cell but
/// not the session, and cancelling stops the cell (and, through <see cref="CellContext"/>, any benchmark
/// processes it started). One cell runs at a time.
/// </summary>
public sealed class NotebookSession : IDisposable
{
    // How long an interrupted cell gets to notice its cancellation before it is abandoned.
    private static readonly TimeSpan InterruptGrace = TimeSpan.FromSeconds(5);

    private readonly ScriptOptions _options;
    private readonly InteractiveAssemblyLoader _loader = new();
    private readonly SemaphoreSlim _oneAtATime = new(1, 1);
    private readonly CellLibraries _libraries;
    private readonly ModeChoice? _mode;
    private readonly ExceptionDispatchInfo? _modeProblem;
    private ScriptState<object>? _state;
    private int _executionCount;

    /// <summary>Creates a session whose <c>#r</c> paths start from <paramref name="workingDirectory"/>.</summary>
    /// <param name="workingDirectory">The notebook's folder.</param>
    /// <param name="mode">The benchmark mode of every cell, as the runner resolved it; null: resolved here, once, from PERFLAB_MODE (the kernel's case).</param>
    public NotebookSession(string workingDirectory, ModeChoice? mode = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(workingDirectory);
        WorkingDirectory = Path.GetFullPath(workingDirectory);
        try
        {
            _mode = mode ?? ModeChoice.Resolve(option: null);
        }
        catch (PerfLabException ex)
        {
            // A bad PERFLAB_MODE must not keep the kernel from starting: the cells that need the mode say why.
            _modeProblem = ExceptionDispatchInfo.Capture(ex);
        }

        foreach (var assembly in ScriptReferences.Shared.Values)
        {
            _loader.RegisterDependency(assembly);
        }

        _options = ScriptOptions.Default
            .WithReferences(ScriptReferences.Framework.Value.Concat(ScriptReferences.Shared.Values.Select(a => MetadataReference.CreateFromFile(a.Location))))
            .WithImports(DefaultUsings.Cell)
            .WithMetadataResolver(new ScriptReferences(WorkingDirectory))
            .WithSourceResolver(new SourceFileResolver([], WorkingDirectory))
            .WithLanguageVersion(LanguageVersion.Latest)
            .WithAllowUnsafe(true)
            .WithEmitDebugInformation(false);
        _libraries = new CellLibraries(_loader);
        ConsoleRouter.Install();
    }

    /// <summary>The folder relative paths start from.</summary>
    public string WorkingDirectory { get; }

    /// <summary>The C# version cells are parsed as (Roslyn's latest, e.g. "14.0"), which the kernel reports to Jupyter.</summary>
    public static string CSharpVersion => LanguageVersion.Latest.MapSpecifiedToEffectiveVersion().ToDisplayString();

    /// <summary>
    /// Shows the helpers' progress where the runner shows it itself (<see cref="NotebookRunner"/> on a terminal): every
    /// step a cell's benchmark or disassembly reports, beside the progress lines the cell's record keeps. Null: the
    /// lines alone.
    /// </summary>
    internal IProgress<RunProgress>? Progress { get; init; }

    /// <summary>
    /// Whether every quick or full run the session's cells make is read for bytes per call only
    /// (<see cref="BenchmarkRequest.ReadsOnlyBytes"/>): it shares the measuring lock with smoke runs and
    /// listings instead of holding it alone, and its times are not cached. Set by the exercise tests, whose checks read
    /// nothing of a run but its bytes, so that their runs do not stop every other measurement of the test run; a
    /// reader's session never sets it.
    /// </summary>
    internal bool RunsReadOnlyBytes { get; init; }

    /// <summary>What answers the cells' benchmark calls: measured (a reader's session), recorded or replayed.</summary>
    internal BenchmarkPolicy Policy { get; init; } = BenchmarkPolicy.Measure;

    /// <summary>The page the frontend shows this session's outputs on: plotly.js goes with its first chart.</summary>
    public NotebookPage Page { get; } = new();

    /// <summary>The benchmark mode of every cell, resolved once when the session started.</summary>
    /// <exception cref="PerfLabException">PERFLAB_MODE was not a mode when the session started.</exception>
    public ModeChoice Mode
    {
        get
        {
            _modeProblem?.Throw();
            return _mode!;
        }
    }

    // The running cell's failed benchmark cases, for its outcome (cells run one at a time).
    private int _failedCases;

    /// <summary>Cells executed so far.</summary>
    public int ExecutionCount => _executionCount;

    /// <summary>Runs one cell.</summary>
    /// <param name="code">The cell's C#.</param>
    /// <param name="publish">Receives every output as it is produced: console text, displays, the result, the error.</param>
    /// <param name="cellName">How messages name the cell.</param>
    /// <param name="cancellationToken">An interrupt: stops helpers and abandons code that does not stop.</param>
    public async Task<CellOutcome> ExecuteAsync(string code, Action<CellOutput> publish, string? cellName = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(code);
        ArgumentNullException.ThrowIfNull(publish);
        await _oneAtATime.WaitAsync(cancellationToken).ConfigureAwait(false);
        var clock = Stopwatch.StartNew();
        var count = Interlocked.Increment(ref _executionCount);
        try
        {
            _failedCases = 0;
            var succeeded = await ExecuteCoreAsync(code, publish, cellName ?? $"cell {count}", cancellationToken).ConfigureAwait(false);
            return new CellOutcome(count, succeeded, clock.Elapsed, _failedCases);
        }
        finally
        {
            _oneAtATime.Release();
        }
    }

    private async Task<bool> ExecuteCoreAsync(string code, Action<CellOutput> publish, string cellName, CancellationToken cancellationToken)
    {
        Script<object> script;
        ImmutableArray<Diagnostic> diagnostics;
        CellLibrary? library = null;
        try
        {
            if (CellLibraries.Wants(code, out var parts))
            {
                // Types using [GeneratedRegex] need a source generator, which scripts cannot run: they
                // become a library, and the rest of the cell (types blanked, lines kept) the submission.
                if (CellLibraries.HiddenByScriptTypes(parts, _state?.Script) is [_, ..] hidden)
                {
                    publish(new ErrorOutput(
                        "CompilationError",
                        $"An earlier cell declared {string.Join(", ", hidden)} as script code, which would hide this cell's {string.Join(", ", hidden)} from the cell's statements and later cells.",
                        ["fix: Give the type in this cell another name, or restart the kernel and run the cells again without the earlier declaration."]));
                    return false;
                }

                var built = await Task.Run(() => _libraries.Build(parts, _state?.Script, _options, cancellationToken), cancellationToken).ConfigureAwait(false);
                if (built.Library is null)
                {
                    publish(CompileErrors.Describe(code, built.Errors, _libraries.TypeNames));
                    return false;
                }

                library = built.Library;
                var options = _options.AddReferences(library.Reference);
                script = _state is null ? CSharpScript.Create(parts.Statements, options, assemblyLoader: _loader) : _state.Script.ContinueWith(parts.Statements, options);
            }
            else
            {
                script = _state is null ? CSharpScript.Create(code, _options, assemblyLoader: _loader) : _state.Script.ContinueWith(code, _options);
            }

            diagnostics = await Task.Run(() => script.Compile(cancellationToken), cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            publish(Interrupted("before it compiled"));
            return false;
        }
        catch (PerfLabException ex)
        {
            publish(ThrownErrors.Describe(ex)); // the regex generator is missing: the helpers need a build
            return false;
        }

        var errors = diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).ToArray();
        if (errors.Length > 0)
        {
            publish(CompileErrors.Describe(code, errors, _libraries.TypeNames));
            return false;
        }

        using var interrupt = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var context = new CellContext(code, cellName, this, publish, interrupt.Token);
        var abandoned = new StrongBox<bool>();
        var run = RunAsync(script, library, context, publish, abandoned);
        var stopped = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var registration = cancellationToken.Register(() => stopped.TrySetResult()).ConfigureAwait(false);
        if (await Task.WhenAny(run, stopped.Task).ConfigureAwait(false) == run)
        {
            return await run.ConfigureAwait(false);
        }

        // Interrupted: helpers see the token and stop (killing benchmark processes); give them a moment.
        if (await Task.WhenAny(run, Task.Delay(InterruptGrace, CancellationToken.None)).ConfigureAwait(false) == run)
        {
            await run.ConfigureAwait(false);
            return false;
        }

        abandoned.Value = true;
        publish(new ErrorOutput(
            "Interrupted",
            "Interrupted, but the cell's own code did not stop: it goes on in the background (a loop that never checks for cancellation cannot be stopped from outside).",
            ["Restart the kernel to stop it; the next cells continue from the state before this one."]));
        return false;
    }

    private async Task<bool> RunAsync(Script<object> script, CellLibrary? library, CellContext context, Action<CellOutput> publish, StrongBox<bool> abandoned)
    {
        // A fresh thread-pool flow: the cell's console output and context must not leak into the caller's.
        return await Task.Run(async () =>
        {
            using var capture = ConsoleRouter.Capture(publish);
            using var enter = context.Enter();
            ScriptState<object> state;
            try
            {
                state = _state is null
                    ? await script.RunAsync(globals: null, catchException: _ => true, cancellationToken: CancellationToken.None).ConfigureAwait(false)
                    : await script.RunFromAsync(_state, catchException: _ => true, cancellationToken: CancellationToken.None).ConfigureAwait(false);
            }
            catch (CompilationErrorException ex)
            {
                publish(CompileErrors.Describe(context.Source, ex.Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).ToArray(), _libraries.TypeNames));
                return false;
            }

            ConsoleRouter.Flush();
            if (abandoned.Value)
            {
                return false; // Finished after the interrupt gave up on it: later cells did not wait for it.
            }

            _state = state;
            if (library is not null)
            {
                _libraries.Commit(library); // later cells now reference it (or replace it)
            }

            if (state.Exception is { } exception)
            {
                publish(context.CancellationToken.IsCancellationRequested && exception is OperationCanceledException
                    ? Interrupted("and every benchmark process it started was stopped")
                    : ThrownErrors.Describe(exception));
                return false;
            }

            if (HasTrailingExpression(script.Code))
            {
                publish(new DisplayOutput(ValueDisplay.Format(state.ReturnValue, Page), IsResult: true));
            }

            // After the result: the table with each case's whole error stays on screen above this.
            if (context.FailedCases is [_, ..] failed)
            {
                _failedCases = failed.Count;
                publish(new ErrorOutput(
                    "BenchmarkCaseFailed",
                    failed.Count == 1 ? $"A benchmark case failed: {failed[0]}" : $"{failed.Count} benchmark cases failed.",
                    [.. failed.Count == 1 ? [] : failed, "fix: The results table shows each error in full. Fix the benchmark and run the cell again."]));
                return false;
            }

            return true;
        }).ConfigureAwait(false);
    }

    /// <summary>
    /// Compiles a throwaway cell in the background, so the compiler is loaded and JIT-compiled before
    /// the reader's first cell arrives (most of a fresh kernel's first-cell time). Changes no state.
    /// </summary>
    public Task WarmUpAsync() => Task.Run(() => CSharpScript.Create("System.Console.Out", _options, assemblyLoader: _loader).Compile());

    /// <summary>Whether <paramref name="code"/> is a complete submission, or needs more lines (Jupyter's is_complete_request).</summary>
    /// <param name="code">The text typed so far.</param>
    public static bool IsComplete(string code)
    {
        ArgumentNullException.ThrowIfNull(code);
        var tree = CSharpSyntaxTree.ParseText(code, CSharpParseOptions.Default.WithKind(SourceCodeKind.Script).WithLanguageVersion(LanguageVersion.Latest));
        return SyntaxFactory.IsCompleteSubmission(tree);
    }

    /// <summary>Names that can complete the word at <paramref name="cursor"/>, with the span they replace.</summary>
    /// <param name="code">The cell's text.</param>
    /// <param name="cursor">Cursor position (UTF-16 offset).</param>
    /// <param name="cancellationToken">Cancels the lookup.</param>
    public Task<Completions> CompleteAsync(string code, int cursor, CancellationToken cancellationToken = default) =>
        Task.Run(() => Completer.Complete(_state is null ? CSharpScript.Create(code, _options, assemblyLoader: _loader) : _state.Script.ContinueWith(code, _options), code, cursor, cancellationToken), cancellationToken);

    /// <inheritdoc />
    public void Dispose()
    {
        _loader.Dispose();
        _oneAtATime.Dispose();
    }

    private static ErrorOutput Interrupted(string how) => new("Interrupted", $"Interrupted: the cell was stopped {how}.", []);

    // `x` alone displays x; `x;` displays nothing (as in .NET Interactive).
    private static bool HasTrailingExpression(string code)
    {
        var root = CSharpSyntaxTree.ParseText(code, CSharpParseOptions.Default.WithKind(SourceCodeKind.Script).WithLanguageVersion(LanguageVersion.Latest)).GetRoot();
        return root is CompilationUnitSyntax unit
            && unit.Members.LastOrDefault() is GlobalStatementSyntax { Statement: ExpressionStatementSyntax statement }
            && statement.SemicolonToken.IsMissing;
    }
}
