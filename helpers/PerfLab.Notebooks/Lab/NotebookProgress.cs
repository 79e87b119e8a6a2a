using PerfLab.Benchmarks;

namespace PerfLab.Notebooks;

/// <summary>Benchmark progress as lines in the cell's output: one per step (runtime, case, launch, stage), not per iteration.</summary>
internal sealed class NotebookProgress(TextWriter writer) : IProgress<RunProgress>
{
    private readonly Lock _gate = new();
    private string? _lastStep;

    public void Report(RunProgress value)
    {
        var step = $"{value.Stage}|{value.Runtime}|{value.CaseNumber}|{value.Launch}|{value.Message}";
        lock (_gate)
        {
            if (step == _lastStep)
            {
                return;
            }

            _lastStep = step;
        }

        writer.WriteLine((value with { Phase = null, Iteration = null }).ToString());
    }
}
