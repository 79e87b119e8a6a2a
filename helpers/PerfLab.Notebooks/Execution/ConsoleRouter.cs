using System.Text;
using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Execution;

/// <summary>
/// Sends Console output written while a cell runs to that cell's outputs. Installed once per process;
/// the receiving cell flows with the async context, so output from tasks and threads the cell starts
/// lands in the cell, and everything else (the kernel's own logging) reaches the real console.
/// </summary>
internal static class ConsoleRouter
{
    private static readonly AsyncLocal<Action<CellOutput>?> Target = new();
    private static readonly Lock Gate = new();
    private static bool _installed;
    private static TextWriter? _progress;

    /// <summary>
    /// Where the helpers write progress: the running cell's stdout, marked as progress so a report can
    /// fold it away; outside a cell of ours (e.g. .NET Interactive), the console.
    /// </summary>
    public static TextWriter Progress
    {
        get
        {
            Install();
            return Target.Value is null ? Console.Out : _progress!;
        }
    }

    /// <summary>Routes Console.Out and Console.Error through the router (idempotent).</summary>
    public static void Install()
    {
        lock (Gate)
        {
            if (_installed)
            {
                return;
            }

            Console.SetOut(new RoutingWriter("stdout", Console.Out, progress: false));
            Console.SetError(new RoutingWriter("stderr", Console.Error, progress: false));
            _progress = new RoutingWriter("stdout", Console.Out, progress: true);
            _installed = true;
        }
    }

    /// <summary>Makes the current async flow's console output go to <paramref name="publish"/> until disposed.</summary>
    /// <param name="publish">Receives stream outputs.</param>
    public static IDisposable Capture(Action<CellOutput> publish)
    {
        Install();
        var previous = Target.Value;
        Target.Value = publish;
        return new Restore(previous);
    }

    /// <summary>Writes out any partial line held for the current flow.</summary>
    public static void Flush()
    {
        Console.Out.Flush();
        Console.Error.Flush();
        _progress?.Flush();
    }

    private sealed class Restore(Action<CellOutput>? previous) : IDisposable
    {
        public void Dispose()
        {
            Flush();
            Target.Value = previous;
        }
    }

    // Buffers per target until a newline, so a progress line arrives as one stream message.
    private sealed class RoutingWriter(string name, TextWriter fallback, bool progress) : TextWriter
    {
        private readonly Dictionary<Action<CellOutput>, StringBuilder> _pending = [];

        public override Encoding Encoding => Encoding.UTF8;

        public override void Write(char value) => Write(value.ToString());

        public override void Write(string? value)
        {
            if (string.IsNullOrEmpty(value))
            {
                return;
            }

            var target = Target.Value;
            if (target is null)
            {
                fallback.Write(value);
                return;
            }

            string? ready = null;
            lock (_pending)
            {
                if (!_pending.TryGetValue(target, out var buffer))
                {
                    _pending[target] = buffer = new StringBuilder();
                }

                buffer.Append(value);
                var lastNewline = value.LastIndexOf('\n');
                if (lastNewline >= 0)
                {
                    var text = buffer.ToString();
                    var cut = text.LastIndexOf('\n') + 1;
                    ready = text[..cut];
                    buffer.Clear().Append(text, cut, text.Length - cut);
                }
            }

            if (ready is not null)
            {
                target(new StreamOutput(name, ready, progress));
            }
        }

        public override void Write(char[] buffer, int index, int count) => Write(new string(buffer, index, count));

        public override void WriteLine(string? value) => Write(value + "\n");

        public override void WriteLine() => Write("\n");

        public override void Flush()
        {
            var target = Target.Value;
            if (target is null)
            {
                fallback.Flush();
                return;
            }

            string? rest = null;
            lock (_pending)
            {
                if (_pending.Remove(target, out var buffer) && buffer.Length > 0)
                {
                    rest = buffer.ToString();
                }
            }

            if (rest is not null)
            {
                target(new StreamOutput(name, rest, progress));
            }
        }
    }
}
