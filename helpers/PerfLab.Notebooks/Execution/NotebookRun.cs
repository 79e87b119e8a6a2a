using PerfLab.Contract;
using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Execution;

/// <summary>One cell after a headless run.</summary>
/// <param name="Cell">The cell as stored.</param>
/// <param name="Outputs">What it produced (stream chunks already merged), empty for prose.</param>
/// <param name="ExecutionCount">1, 2, ... for executed code cells; null for prose and cells not reached.</param>
/// <param name="Duration">How long it ran.</param>
/// <param name="Failed">It ended with an error.</param>
/// <param name="FailedCases">Benchmark cases of the cell that failed.</param>
public sealed record CellRun(NotebookCell Cell, IReadOnlyList<CellOutput> Outputs, int? ExecutionCount, TimeSpan Duration, bool Failed, int FailedCases = 0);

/// <summary>A notebook run top to bottom: every cell with its outputs, and how and where it ran.</summary>
/// <param name="Notebook">The notebook.</param>
/// <param name="Cells">Every cell, in order; cells after a failure are present, not executed.</param>
/// <param name="Mode">The benchmark mode the run used.</param>
/// <param name="StartedAt">When it started (UTC).</param>
/// <param name="Duration">How long it took.</param>
/// <param name="Environment">One line: OS, CPU, cores, .NET of the kernel.</param>
public sealed record NotebookRun(
    NotebookDocument Notebook,
    IReadOnlyList<CellRun> Cells,
    BenchmarkMode Mode,
    DateTimeOffset StartedAt,
    TimeSpan Duration,
    string Environment)
{
    /// <summary>The first cell that failed, if any.</summary>
    public CellRun? FirstFailure => Cells.FirstOrDefault(c => c.Failed);

    /// <summary>Benchmark cases that failed, over every cell.</summary>
    public int FailedCases => Cells.Sum(c => c.FailedCases);

    /// <summary>All cells ran without error.</summary>
    public bool Succeeded => FirstFailure is null;
}
