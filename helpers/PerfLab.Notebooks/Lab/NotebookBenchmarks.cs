using PerfLab.Benchmarks;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Results;

namespace PerfLab.Notebooks;

/// <summary>
/// The benchmarks a notebook runs, measured fresh: the notebook is executed top to bottom exactly as a
/// reader's `perflab run` would, and every <see cref="Lab.RunAsync{T}"/> it makes is collected. This is
/// how the course's reference job covers the notebooks without a second copy of their benchmark code. Exercise
/// sections are not run (<see cref="ExerciseSections"/>): their unsolved code is the reader's to replace.
/// </summary>
public static class NotebookBenchmarks
{
    /// <summary>Runs <paramref name="notebook"/> and returns its benchmark runs, in cell order, each with the content key of what it measured (<see cref="BenchmarkRequest.ContentKey"/>).</summary>
    /// <param name="notebook">The .ipynb file.</param>
    /// <param name="name">What the runs' source says: the notebook's path as readers know it, e.g. notebooks/jit/02-stack-allocation.ipynb.</param>
    /// <param name="mode">The benchmark mode of every cell, as the job resolved it.</param>
    /// <param name="log">Receives the runner's progress lines, or null.</param>
    /// <param name="cancellationToken">Stops the running cell and its benchmark processes.</param>
    /// <param name="measured">The run already measured of a content key, or null; a call it answers is not measured again nor returned. Null: measure every call.</param>
    /// <param name="launches">Processes per case and runtime for every call that names none; null: the mode's.</param>
    /// <exception cref="PerfLabException">A cell failed (the notebook, cell and error are named), or the notebook cannot be read.</exception>
    public static async Task<IReadOnlyList<(BenchmarkRun Run, string Code)>> RunAsync(string notebook, string name, ModeChoice mode, Action<string>? log, CancellationToken cancellationToken, Func<string, BenchmarkRun?>? measured = null, int? launches = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(notebook);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        var runs = new List<(BenchmarkRun Run, string Code)>();

        var policy = new BenchmarkPolicy
        {
            Recorder = (request, run) =>
            {
                lock (runs)
                {
                    runs.Add((run with { Source = $"{name}, {run.Source}" }, request.ContentKey()));
                }
            },
            Replay = measured is null ? null : request => measured(request.ContentKey()),
            MeasureUnanswered = true,
            DefaultLaunches = launches,
        };
        var skip = ExerciseSections.CodeCells(NotebookDocument.Load(notebook));
        var result = await new NotebookRunner { Skip = skip, Policy = policy }.RunAsync(notebook, mode, log, cancellationToken: cancellationToken).ConfigureAwait(false);
        if (result.FirstFailure is { } failed)
        {
            var problem = failed.Outputs.OfType<ErrorOutput>().FirstOrDefault();
            throw new PerfLabException(
                $"{name}, {failed.Cell.Name} failed: {problem?.Message ?? "the cell failed"}",
                $"Run it alone to see the whole error: perflab run {name} --mode {ModeChoice.Name(mode.Mode)}");
        }

        return runs;
    }
}
