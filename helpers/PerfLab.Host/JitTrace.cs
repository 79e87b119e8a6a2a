using System.Globalization;
using System.Text;
using PerfLab.Contract;

namespace PerfLab.Host;

/// <summary>
/// A diagnostic, off unless <see cref="Variable"/> names a folder: every method the JIT compiles in this process, at
/// which tier and when, beside the host's own progress events and the case's result, so a launch that measured slowly
/// can be read against one that did not (which callees were still compiling, or at which tier, when measuring
/// started). bench/launches/measure.cs reads it. Listening costs a little at start-up and nothing while no method
/// compiles.
/// </summary>
internal static class JitTrace
{
    /// <summary>The environment variable that names the folder the trace goes to, one file per host process.</summary>
    public const string Variable = "PERFLAB_JIT_TRACE";

    private static readonly List<(DateTime At, string Line)> Lines = [];
    private static string? _folder;
    private static JitEvents? _events;

    /// <summary>Starts listening when <see cref="Variable"/> is set; the host's events are then traced too.</summary>
    public static void StartIfAsked()
    {
        if (Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } folder)
        {
            _folder = folder;
            _events = new JitEvents(Add);
        }
    }

    /// <summary>Whether this process traces (<see cref="StartIfAsked"/> found <see cref="Variable"/> set).</summary>
    public static bool Tracing => _folder is not null;

    /// <summary>Notes one of the host's progress events in the trace, when tracing.</summary>
    public static void Note(string phase, int? iteration)
    {
        if (_folder is not null)
        {
            Add(DateTime.UtcNow, $"EVENT {phase}{(iteration is { } i ? " " + i.ToString(CultureInfo.InvariantCulture) : "")}");
        }
    }

    /// <summary>Notes a line of text in the trace (a diagnostic's, e.g. <see cref="SpeedProbe"/>), when tracing.</summary>
    public static void NoteText(string text)
    {
        if (_folder is not null)
        {
            Add(DateTime.UtcNow, text);
        }
    }

    /// <summary>
    /// Writes the trace, in time order, milliseconds from its first line, and the case's result last, to
    /// netN.0-caseI-TIME-PID.txt in the trace folder; when tracing.
    /// </summary>
    public static void Write(HostResult result)
    {
        if (_folder is null)
        {
            return;
        }

        _events?.Dispose();
        (DateTime At, string Line)[] lines;
        lock (Lines)
        {
            lines = [.. Lines.OrderBy(l => l.At)];
        }

        var text = new StringBuilder();
        foreach (var (at, line) in lines)
        {
            text.Append(CultureInfo.InvariantCulture, $"{(at - lines[0].At).TotalMilliseconds,9:F1} {line}\n");
        }

        var statistics = result.Statistics;
        text.Append(CultureInfo.InvariantCulture, $"RESULT {result.Case?.MethodName} mean={statistics?.Mean:F3} min={statistics?.Min:F3} error={result.Error}\n");
        Directory.CreateDirectory(_folder);
        var name = $"net{Environment.Version.Major}.0-case{result.Case?.Index}-{DateTime.UtcNow:HHmmssfff}-{Environment.ProcessId}.txt";
        File.WriteAllText(Path.Combine(_folder, name), text.ToString());
    }

    private static void Add(DateTime at, string line)
    {
        lock (Lines)
        {
            Lines.Add((at, line));
        }
    }
}
