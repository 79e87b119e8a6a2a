using System.Collections;
using System.Reflection;
using System.Runtime.InteropServices;

namespace PerfLab.Interactive;

/// <summary>
/// Jupyter's Interrupt for the tool's kernel. The kernelspec `dotnet interactive jupyter install` writes names no
/// interrupt_mode, so Jupyter sends SIGINT to the kernel's process group; the tool's ASP.NET host takes that as
/// Ctrl+C and shuts the kernel down, and its interrupt_request handling cancels nothing either
/// (dotnet/interactive#776). Here SIGINT cancels the running cell instead (its benchmark processes are killed with
/// their trees) and the kernel goes on; SIGTERM still stops it.
/// </summary>
internal sealed class JupyterInterrupt
{
    private const string HostLifetime = "Microsoft.Extensions.Hosting.Internal.ConsoleLifetime";

    private readonly object _gate = new();
    private readonly PosixSignalRegistration _sigint;
    private CancellationTokenSource? _cell;

    private JupyterInterrupt()
    {
        _sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, context =>
        {
            context.Cancel = true;
            lock (_gate)
            {
                _cell?.Cancel();
            }
        });
        StopHostShutdownOnSigint();
    }

    /// <summary>Takes SIGINT when the tool runs as a Jupyter kernel (`dotnet-interactive jupyter ...`); elsewhere null.</summary>
    public static JupyterInterrupt? AttachIfJupyter() =>
        Environment.GetCommandLineArgs().Contains("jupyter", StringComparer.Ordinal) ? new JupyterInterrupt() : null;

    /// <summary>The running cell's token: .NET Interactive's own, and cancelled by an interrupt too; null between cells.</summary>
    public CancellationToken? Cell
    {
        get
        {
            lock (_gate)
            {
                return _cell?.Token;
            }
        }
    }

    /// <summary>Marks a cell as running until the result is disposed.</summary>
    public IDisposable Running(CancellationToken kernelToken)
    {
        lock (_gate)
        {
            _cell = CancellationTokenSource.CreateLinkedTokenSource(kernelToken);
            return new Ended(this, _cell);
        }
    }

    private sealed class Ended(JupyterInterrupt owner, CancellationTokenSource cell) : IDisposable
    {
        public void Dispose()
        {
            lock (owner._gate)
            {
                if (owner._cell == cell)
                {
                    owner._cell = null;
                }

                cell.Dispose();
            }
        }
    }

    // The host's console lifetime registered SIGINT to stop the application; only private fields reach that
    // registration (PosixSignalRegistration's table, the lifetime's _sigIntRegistration). Not found (another
    // runtime or host), the interrupt still cancels the cell, and the host still shuts the kernel down.
    private static void StopHostShutdownOnSigint()
    {
        var table = typeof(PosixSignalRegistration).GetField("s_registrations", BindingFlags.NonPublic | BindingFlags.Static)?.GetValue(null);
        if (table is not IDictionary registrations)
        {
            return;
        }

        var lifetimes = new List<object>();
        lock (table)
        {
            foreach (var tokens in registrations.Values.OfType<IEnumerable>())
            {
                foreach (var token in tokens)
                {
                    if (token.GetType().GetProperty("Handler")?.GetValue(token) is Delegate { Target: { } target } && target.GetType().FullName == HostLifetime)
                    {
                        lifetimes.Add(target);
                    }
                }
            }
        }

        foreach (var lifetime in lifetimes.Distinct())
        {
            (lifetime.GetType().GetField("_sigIntRegistration", BindingFlags.NonPublic | BindingFlags.Instance)?.GetValue(lifetime) as IDisposable)?.Dispose();
        }
    }
}
