using PerfLab.Benchmarks;

namespace PerfLab.Cli;

/// <summary>
/// Shows live progress on standard error. On a terminal: one status line, rewritten in place, saying which case and
/// launch is running and about how long is left (stages without a runtime, such as compiling, print as lines). With
/// <c>--verbose</c>, or when the output is redirected (a CI log, where a rewritten line would be noise): one line
/// per step (runtime, case, launch, phase), not per iteration, each runtime's steps told apart (launches taking
/// turns report the runtimes' iterations interleaved). Other lines written through <see cref="WriteLine"/>
/// go above the status line.
/// </summary>
internal sealed class ProgressPrinter(TextWriter writer, bool verbose = false) : IProgress<RunProgress>, IDisposable
{
    private readonly bool _statusLine = !verbose && ReferenceEquals(writer, Console.Error) && !Console.IsErrorRedirected;
    private readonly Lock _gate = new();
    private readonly Dictionary<string, string> _lastStepOf = [];
    private int _lastWidth;

    /// <summary>True when progress is one status line rewritten in place (a terminal, not --verbose).</summary>
    public bool InPlace => _statusLine;

    /// <summary>Writes a line that is not progress (a notebook cell's output, say), clearing the status line first; the next report shows it again.</summary>
    public void WriteLine(string line)
    {
        lock (_gate)
        {
            Clear();
            writer.WriteLine(line);
        }
    }

    public void Report(RunProgress value)
    {
        lock (_gate)
        {
            var line = value.ToString();
            if (_statusLine)
            {
                if (value.Runtime is null && value.Partial is null)
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

            var step = $"{value.Stage}|{value.Runtime}|{value.CaseNumber}|{value.Launch}|{value.Phase}|{value.Message}";
            var runtime = value.Runtime ?? "";
            if (!_lastStepOf.TryGetValue(runtime, out var last) || step != last)
            {
                _lastStepOf[runtime] = step;
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
        if (_statusLine && _lastWidth > 0)
        {
            writer.Write("\r" + new string(' ', _lastWidth) + "\r");
            _lastWidth = 0;
        }
    }
}
