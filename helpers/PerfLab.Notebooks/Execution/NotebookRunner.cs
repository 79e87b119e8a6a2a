using System.Diagnostics;
using System.Runtime.InteropServices;
using PerfLab.Benchmarks;
using PerfLab.Notebooks.Documents;
using PerfLab.Room;

namespace PerfLab.Notebooks.Execution;

/// <summary>
/// Runs a notebook top to bottom in this process with the same engine as the kernel, and collects
/// every output. Stops executing at the first failing cell (later cells are kept, not run), like
/// Jupyter's own headless clients. Never writes the notebook.
/// </summary>
public sealed class NotebookRunner
{
    /// <summary>Code cells, by index, to keep as they are without running them (the course site's exercises).</summary>
    public IReadOnlySet<int> Skip { get; init; } = new HashSet<int>();

    /// <summary>Run the cells after a failing one too (the course site, where a cell without a reference result must not hide the rest).</summary>
    public bool KeepGoing { get; init; }

    /// <summary>What answers the cells' benchmark calls (the reference job records, the course site replays); default: measured.</summary>
    internal BenchmarkPolicy Policy { get; init; } = BenchmarkPolicy.Measure;

    /// <summary>Runs the notebook at <paramref name="path"/>.</summary>
    /// <param name="path">The .ipynb file.</param>
    /// <param name="mode">The benchmark mode of every cell, resolved once by the caller; null: PERFLAB_MODE, else the default (<see cref="ModeChoice.Resolve(string?)"/>).</param>
    /// <param name="log">Receives progress lines (cell started, its console output, finished), or null.</param>
    /// <param name="progress">
    /// Shows the helpers' progress itself (e.g. one status line rewritten in place): it receives every step of the
    /// cells' benchmarks and disassemblies, and <paramref name="log"/> then gets none of their progress lines. The
    /// cells' records keep those lines either way. Null: <paramref name="log"/> gets them.
    /// </param>
    /// <param name="replacements">Code to run instead of a cell's own, by cell index (exercise solutions).</param>
    /// <param name="cancellationToken">Stops the running cell and its benchmark processes.</param>
    /// <exception cref="PerfLabException">The notebook cannot be read, or PERFLAB_MODE is not a mode.</exception>
    public async Task<NotebookRun> RunAsync(
        string path,
        ModeChoice? mode = null,
        Action<string>? log = null,
        IProgress<RunProgress>? progress = null,
        IReadOnlyDictionary<int, string>? replacements = null,
        CancellationToken cancellationToken = default)
    {
        var notebook = NotebookDocument.Load(path);
        var chosen = mode ?? ModeChoice.Resolve(option: null);
        var startedAt = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        var folder = Path.GetDirectoryName(notebook.Path)!;
        var cells = new List<CellRun>();
        var failed = false;

        // Relative file paths in cells mean the notebook's folder, as in Jupyter.
        using var inFolder = NotebookFolder.Enter(folder);
        // The runs of its cells name the notebook to a workshop room (flows into each cell; gone when this returns).
        RoomLaptop.Notebook = notebook.Path;
        // Every cell uses the mode resolved here, with where it came from (the setup cell says it).
        using var session = new NotebookSession(folder, chosen) { Progress = progress, Policy = Policy };
        foreach (var cell in notebook.Cells)
        {
            if (cell.Kind != CellKind.Code || failed || string.IsNullOrWhiteSpace(cell.Source) || Skip.Contains(cell.Index))
            {
                cells.Add(new CellRun(cell, [], null, TimeSpan.Zero, Failed: false));
                continue;
            }

            cancellationToken.ThrowIfCancellationRequested();
            log?.Invoke($"{cell.Name}: running");
            var outputs = new List<CellOutput>();
            void Publish(CellOutput output)
            {
                lock (outputs)
                {
                    outputs.Add(output);
                }

                if (output is StreamOutput stream && !(stream.IsProgress && progress is not null))
                {
                    foreach (var line in stream.Text.TrimEnd('\n').Split('\n'))
                    {
                        log?.Invoke("  | " + line);
                    }
                }
            }

            var code = replacements is not null && replacements.TryGetValue(cell.Index, out var replacement) ? replacement : cell.Source;
            var outcome = await session.ExecuteAsync(code, Publish, cell.Name, cancellationToken).ConfigureAwait(false);
            cancellationToken.ThrowIfCancellationRequested();
            List<CellOutput> merged;
            lock (outputs)
            {
                merged = Merge(outputs);
            }

            cells.Add(new CellRun(cell, merged, outcome.ExecutionCount, outcome.Duration, !outcome.Succeeded, outcome.FailedCases));
            log?.Invoke($"{cell.Name}: {(outcome.Succeeded ? "ok" : "FAILED")} in {outcome.Duration.TotalSeconds:F1} s");
            failed = !outcome.Succeeded && !KeepGoing;
        }

        return new NotebookRun(notebook, cells, chosen.Mode, startedAt, clock.Elapsed, EnvironmentLine());
    }

    /// <summary>One line about where the notebook ran.</summary>
    public static string EnvironmentLine() =>
        $"{RuntimeInformation.OSDescription} {RuntimeInformation.OSArchitecture}, {Environment.ProcessorCount} logical cores, kernel on {RuntimeInformation.FrameworkDescription}";

    // Console text arrives line by line; a report (and a saved notebook) wants one block per stream. What a running
    // cell showed and replaced in place (LiveOutput) is no part of the record: its result is.
    private static List<CellOutput> Merge(IEnumerable<CellOutput> outputs)
    {
        var merged = new List<CellOutput>();
        foreach (var output in outputs.Where(o => o is not LiveOutput))
        {
            if (output is StreamOutput next && merged.Count > 0 && merged[^1] is StreamOutput last && last.Name == next.Name && last.IsProgress == next.IsProgress)
            {
                merged[^1] = last with { Text = last.Text + next.Text };
            }
            else
            {
                merged.Add(output);
            }
        }

        return merged;
    }
}
