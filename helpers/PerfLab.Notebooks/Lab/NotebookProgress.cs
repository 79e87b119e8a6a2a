using PerfLab.Benchmarks;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks;

/// <summary>
/// Benchmark progress in a cell. Lines in the cell's output, one per step (runtime, case, launch, stage), not per
/// iteration, each runtime's steps told apart (launches taking turns report the runtimes' iterations interleaved):
/// the record, which a report folds away. And, for a run of several launches per case where the kernel
/// can replace an output in place (<paramref name="show"/>), one progress line and the table so far
/// (<see cref="RunProgress.Partial"/>, after each round of launches), both emptied by <see cref="Finish"/>: the
/// cell's result is the final table. Every step, iteration included, also goes to <paramref name="observer"/>.
/// </summary>
/// <param name="writer">Where the lines go.</param>
/// <param name="show">Shows a view in the running cell and returns what replaces it; null where nothing can be replaced.</param>
/// <param name="observer">Shows the progress where the runner shows it itself (<see cref="NotebookSession.Progress"/>); null elsewhere.</param>
internal sealed class NotebookProgress(TextWriter writer, Func<LiveView, Action<LiveView?>>? show, IProgress<RunProgress>? observer) : IProgress<RunProgress>
{
    private readonly Lock _gate = new();
    private readonly Dictionary<string, string> _lastStepOf = [];
    private Action<LiveView?>? _status;
    private Action<LiveView?>? _table;

    public void Report(RunProgress value)
    {
        observer?.Report(value);
        var step = $"{value.Stage}|{value.Runtime}|{value.CaseNumber}|{value.Launch}|{value.Message}";
        var line = (value with { Phase = null, Iteration = null }).ToString();
        lock (_gate)
        {
            var runtime = value.Runtime ?? "";
            if (_lastStepOf.TryGetValue(runtime, out var last) && step == last && value.Partial is null)
            {
                return;
            }

            _lastStepOf[runtime] = step;
            if (show is not null && (_status is not null || value.LaunchCount > 1))
            {
                Replace(ref _status, LiveView.Line(line));
            }

            if (show is not null && value.Partial is { } partial)
            {
                Replace(ref _table, LiveView.Of(partial));
            }
        }

        writer.WriteLine(line);
    }

    /// <summary>Empties the progress line and the table so far: the cell's result and the lines are what stays.</summary>
    public void Finish()
    {
        lock (_gate)
        {
            _status?.Invoke(null);
            _table?.Invoke(null);
            _status = _table = null;
        }
    }

    private void Replace(ref Action<LiveView?>? shown, LiveView view)
    {
        if (shown is null)
        {
            shown = show!(view);
        }
        else
        {
            shown(view);
        }
    }
}
