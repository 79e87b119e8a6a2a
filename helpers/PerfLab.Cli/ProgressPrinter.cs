using PerfLab.Benchmarks;

namespace PerfLab.Cli;

/// <summary>
/// Shows live progress on standard error: one rewritten line on a terminal, or one line per step
/// (not per iteration) when the output is redirected, as in CI logs.
/// </summary>
internal sealed class ProgressPrinter(TextWriter writer) : IProgress<RunProgress>, IDisposable
{
    private readonly bool _interactive = ReferenceEquals(writer, Console.Error) && !Console.IsErrorRedirected;
    private readonly Lock _gate = new();
    private string? _lastStep;
    private int _lastWidth;

    public void Report(RunProgress value)
    {
        lock (_gate)
        {
            var line = value.ToString();
            if (_interactive)
            {
                if (value.Phase is null && value.Runtime is null)
                {
                    Clear();
                    writer.WriteLine(line);
                    return;
                }

                var text = line.Length > Console.WindowWidth - 1 && Console.WindowWidth > 20 ? line[..(Console.WindowWidth - 1)] : line;
                writer.Write("\r" + text.PadRight(_lastWidth));
                _lastWidth = text.Length;
                return;
            }

            // Redirected: print a line when the step (runtime, case, launch, phase) changes, not per iteration.
            var step = $"{value.Stage}|{value.Runtime}|{value.CaseNumber}|{value.Launch}|{value.Phase}|{value.Message}";
            if (step != _lastStep)
            {
                _lastStep = step;
                writer.WriteLine(line);
            }
        }
    }

    public void Finish()
    {
        lock (_gate)
        {
            Clear();
        }
    }

    public void Dispose() => Finish();

    private void Clear()
    {
        if (_interactive && _lastWidth > 0)
        {
            writer.Write("\r" + new string(' ', _lastWidth) + "\r");
            _lastWidth = 0;
        }
    }
}
