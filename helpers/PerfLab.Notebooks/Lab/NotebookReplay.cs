using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Notebooks.Execution;
using PerfLab.Results;

namespace PerfLab.Notebooks;

/// <summary>What a replayed benchmark call found.</summary>
/// <param name="Cell">The calling cell's index.</param>
/// <param name="Type">The benchmark class.</param>
/// <param name="Code">The content key of what the call would measure (<see cref="BenchmarkRequest.ContentKey"/>).</param>
/// <param name="Found">The recorded run, or null: no run was recorded for this code.</param>
public sealed record ReplayedCall(int Cell, string Type, string Code, BenchmarkRun? Found);

/// <summary>A notebook run by <see cref="NotebookReplay"/>: its cells and what each benchmark call found.</summary>
/// <param name="Run">The cells and their outputs.</param>
/// <param name="Calls">Every Lab.RunAsync call, in order.</param>
public sealed record ReplayedNotebook(NotebookRun Run, IReadOnlyList<ReplayedCall> Calls);

/// <summary>
/// A notebook run whose benchmark cells are answered from recorded runs (the course's reference file), found by
/// the content key of what each cell would measure (<see cref="BenchmarkRequest.ContentKey"/>), and never
/// measured. Every other cell runs as in <c>perflab run</c>: listings, generated regex source, break-even charts.
/// A call whose code has no recorded run gets a run without rows that says so, and the calls say which.
/// This is how the course site shows results without running a benchmark.
/// </summary>
public static class NotebookReplay
{
    /// <summary>Runs <paramref name="notebook"/>, answering its benchmark calls from <paramref name="recorded"/>.</summary>
    /// <param name="notebook">The .ipynb file.</param>
    /// <param name="recorded">The recorded run of a content key, or null.</param>
    /// <param name="skip">Code cells (by index) shown but not run.</param>
    /// <param name="log">Receives the runner's progress lines, or null.</param>
    /// <param name="cancellationToken">Stops the running cell and its processes.</param>
    /// <exception cref="PerfLabException">The notebook cannot be read.</exception>
    public static async Task<ReplayedNotebook> RunAsync(string notebook, Func<string, BenchmarkRun?> recorded, IReadOnlySet<int> skip, Action<string>? log, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(notebook);
        ArgumentNullException.ThrowIfNull(recorded);
        ArgumentNullException.ThrowIfNull(skip);
        var calls = new List<ReplayedCall>();

        var policy = new BenchmarkPolicy
        {
            Replay = request =>
            {
                var type = request.Filter.FirstOrDefault()?.TrimEnd('*').TrimEnd('.') ?? "?";
                var cell = CellContext.Current is { } context && int.TryParse(context.CellName.AsSpan("cell ".Length), out var number) ? number - 1 : -1;
                var code = request.ContentKey();
                var found = recorded(code);
                lock (calls)
                {
                    calls.Add(new ReplayedCall(cell, type, code, found));
                }

                return found is null ? Missing(request, type) : found with { MeasuredBy = "this cell's reference run", Code = code };
            },
        };

        // Full mode names what the recorded runs are; the mode decides nothing else here.
        var run = await new NotebookRunner { Skip = skip, KeepGoing = true, Policy = policy }
            .RunAsync(notebook, ModeChoice.Given(BenchmarkMode.Full), log, cancellationToken: cancellationToken).ConfigureAwait(false);
        return new ReplayedNotebook(run, calls);
    }

    private static BenchmarkRun Missing(BenchmarkRequest request, string type) => new(
        BenchmarkRun.CurrentSchemaVersion,
        request.SourcePath,
        request.Mode,
        DateTimeOffset.UtcNow,
        [],
        request.Environment,
        request.Filter,
        "runtime:" + (request.Runtimes.FirstOrDefault()?.Moniker ?? "?"),
        new RunMachine("", "", 0, ""),
        [],
        [$"No recorded run of {type} as this cell writes it."],
        new RunTiming(0, 0, 0, 0, 0));
}
