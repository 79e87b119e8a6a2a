using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchmarkDotNet.Loggers;
using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// Receives BenchmarkDotNet's log: turns iteration lines into progress events on stdout, keeps the
/// whole log in a file for troubleshooting, and remembers the exception a failing benchmark threw
/// (BenchmarkDotNet reports it only here).
/// </summary>
internal sealed partial class HostLogger : ILogger, IDisposable
{
    private readonly StreamWriter _file;
    private readonly StringBuilder _line = new();
    private string? _lastPhase;

    public HostLogger(string path)
    {
        _file = new StreamWriter(path, append: false, Encoding.UTF8);
    }

    /// <summary>
    /// Sees each iteration BenchmarkDotNet reports (its stage, e.g. "OverheadJitting", and the iteration's number), on
    /// BenchmarkDotNet's own thread between two iterations: whatever it does runs before the next iteration starts.
    /// </summary>
    public Action<string, int>? OnIteration { get; set; }

    /// <summary>The first exception the benchmark threw, as "Type: message" plus its first frame.</summary>
    public string? BenchmarkException { get; private set; }

    /// <summary>The case whose stages the events are about, set by <see cref="BeginCase"/>; null before the first.</summary>
    public static int? CurrentCase { get; private set; }

    /// <summary>
    /// Starts a case's part of the log: its events carry its index, and what the previous case left (its exception, its
    /// last stage, its iteration callback) is forgotten.
    /// </summary>
    public void BeginCase(int index)
    {
        CurrentCase = index;
        BenchmarkException = null;
        _lastPhase = null;
        OnIteration = null;
    }

    public string Id => nameof(HostLogger);

    public int Priority => 0;

    public void Write(LogKind logKind, string text)
    {
        _file.Write(text);
        _line.Append(text);
    }

    public void WriteLine()
    {
        _file.WriteLine();
        EndLine();
    }

    public void WriteLine(LogKind logKind, string text)
    {
        _file.WriteLine(text);
        _line.Append(text);
        EndLine();
    }

    public void Flush() => _file.Flush();

    public void Dispose() => _file.Dispose();

    private void EndLine()
    {
        var text = _line.ToString();
        _line.Clear();
        if (BenchmarkException is null && ExceptionStart().IsMatch(text))
        {
            BenchmarkException = Innermost(text);
            return;
        }

        // One call may carry several lines (the WorkloadResult block).
        foreach (var line in text.Split('\n'))
        {
            var match = IterationLine().Match(line);
            if (match.Success)
            {
                var phase = match.Groups["mode"].Value + match.Groups["stage"].Value;
                var iteration = int.Parse(match.Groups["index"].Value, System.Globalization.CultureInfo.InvariantCulture);
                // One event per stage, not per iteration: code run once an iteration turns hot after about 30
                // iterations, when quick mode is measuring, and the JIT then recompiles it while iterations are timed.
                if (phase != _lastPhase)
                {
                    _lastPhase = phase;
                    Emit(new HostEvent(phase, iteration, Case: CurrentCase));
                }
                else
                {
                    JitTrace.Note(phase, iteration);
                }

                OnIteration?.Invoke(phase, iteration);
                if (phase is "WorkloadWarmup" or "WorkloadActual")
                {
                    SpeedProbe.AfterIteration(line);
                }
            }
        }
    }

    public static void Emit(HostEvent hostEvent)
    {
        JitTrace.Note(hostEvent.Phase, hostEvent.Iteration);
        Console.Out.WriteLine(HostProtocol.EventPrefix + JsonSerializer.Serialize(hostEvent, HostProtocol.Json));
        Console.Out.Flush();
    }

    // Reflection wraps the benchmark's exception: the innermost "---> X: message" is the reader's.
    private static string Innermost(string text)
    {
        var lines = text.Split('\n').Select(l => l.TrimEnd('\r')).ToArray();
        var start = Array.FindLastIndex(lines, l => l.TrimStart().StartsWith("---> ", StringComparison.Ordinal));
        var headline = start >= 0 ? lines[start].TrimStart()[5..] : lines[0];
        // The reader's own frame (its assembly carries line numbers) says where; else the first frame.
        var frames = lines.Skip(Math.Max(start, 0) + 1).TakeWhile(l => !l.Contains("--- End of inner exception", StringComparison.Ordinal))
            .Where(l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal)).Select(l => l.Trim()).ToArray();
        var frame = frames.FirstOrDefault(f => f.Contains(":line ", StringComparison.Ordinal) && !f.Contains("/_/", StringComparison.Ordinal)) ?? frames.FirstOrDefault();
        return frame is null ? headline : $"{headline}\n   {frame}";
    }

    [GeneratedRegex(@"^(?<mode>Overhead|Workload)(?<stage>Jitting|Pilot|Warmup|Actual|Result)\s+(?<index>\d+):")]
    private static partial Regex IterationLine();

    [GeneratedRegex(@"^[\w.`]+(Exception|Error): ")]
    private static partial Regex ExceptionStart();
}
