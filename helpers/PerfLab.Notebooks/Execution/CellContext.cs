using PerfLab.Benchmarks;
using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Execution;

/// <summary>
/// What the running cell offers the helpers it calls: its source text (a benchmark cell's class is
/// compiled from it), the token that an interrupt cancels, the benchmark mode its session resolved
/// once (see <see cref="NotebookSession.Mode"/>) and what answers its benchmark calls (<see cref="Policy"/>).
/// Flows with the async context of the cell.
/// </summary>
public sealed class CellContext
{
    private static readonly AsyncLocal<CellContext?> Ambient = new();

    private readonly NotebookSession _session;
    private readonly Action<CellOutput> _publish;
    private readonly List<string> _failedCases = [];

    internal CellContext(string source, string cellName, NotebookSession session, Action<CellOutput> publish, CancellationToken cancellationToken)
    {
        Source = source;
        CellName = cellName;
        _session = session;
        _publish = publish;
        CancellationToken = cancellationToken;
    }

    /// <summary>The cell running on this async flow in the course's kernel or runner; null elsewhere.</summary>
    public static CellContext? Current => Ambient.Value;

    /// <summary>The cell's full text.</summary>
    public string Source { get; }

    /// <summary>How messages name the cell, e.g. "cell 5".</summary>
    public string CellName { get; }

    /// <summary>The benchmark mode of the session running the cell, and where it came from.</summary>
    /// <exception cref="PerfLabException">PERFLAB_MODE was not a mode when the session started.</exception>
    public ModeChoice Mode => _session.Mode;

    /// <summary>Where the helpers also report their progress: the session's <see cref="NotebookSession.Progress"/>, or null.</summary>
    internal IProgress<RunProgress>? Progress => _session.Progress;

    /// <summary>What answers the cell's benchmark calls: its session's <see cref="NotebookSession.Policy"/>.</summary>
    internal BenchmarkPolicy Policy => _session.Policy;

    /// <summary>Whether the session's runs are read for bytes per call only: its <see cref="NotebookSession.RunsReadOnlyBytes"/>.</summary>
    internal bool RunsReadOnlyBytes => _session.RunsReadOnlyBytes;

    /// <summary>Cancelled when the reader interrupts the cell.</summary>
    public CancellationToken CancellationToken { get; }

    /// <summary>The benchmark cases of this cell that failed (one line each): the cell fails with them once it has shown its result.</summary>
    internal IReadOnlyList<string> FailedCases
    {
        get
        {
            lock (_failedCases)
            {
                return [.. _failedCases];
            }
        }
    }

    /// <summary>Notes benchmark cases of this cell that failed.</summary>
    internal void ReportFailedCases(IEnumerable<string> lines)
    {
        lock (_failedCases)
        {
            _failedCases.AddRange(lines);
        }
    }

    /// <summary>Shows <paramref name="view"/> in the cell (a <see cref="LiveOutput"/>); returns what replaces it in place, null emptying it.</summary>
    internal Action<LiveView?> Show(LiveView view)
    {
        var id = "perflab-" + Guid.NewGuid().ToString("N");
        _publish(new LiveOutput(id, view.Data, IsUpdate: false));
        return next => _publish(new LiveOutput(id, next?.Data ?? new Dictionary<string, string>(), IsUpdate: true));
    }

    internal IDisposable Enter()
    {
        var previous = Ambient.Value;
        Ambient.Value = this;
        return new Exit(previous);
    }

    private sealed class Exit(CellContext? previous) : IDisposable
    {
        public void Dispose() => Ambient.Value = previous;
    }
}
