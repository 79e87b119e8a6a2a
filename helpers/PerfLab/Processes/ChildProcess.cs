using System.Diagnostics;
using System.Text;

namespace PerfLab.Processes;

/// <summary>How a child process ended.</summary>
/// <param name="ExitCode">The exit code, or -1 when it was killed.</param>
/// <param name="StandardOutput">Everything it wrote to standard output (minus lines taken by the line handler).</param>
/// <param name="StandardError">Everything it wrote to standard error.</param>
/// <param name="TimedOut">True when it was killed because the timeout passed.</param>
/// <param name="Elapsed">Wall time from start to exit.</param>
public sealed record ChildProcessResult(int ExitCode, string StandardOutput, string StandardError, bool TimedOut, TimeSpan Elapsed);

/// <summary>
/// Starts a process with an argument list (never through a shell), streams its output, and kills its
/// whole process tree on timeout or cancellation.
/// </summary>
public static class ChildProcess
{
    /// <summary>Runs <paramref name="fileName"/> to completion.</summary>
    /// <param name="fileName">The executable.</param>
    /// <param name="arguments">Arguments, passed as a list.</param>
    /// <param name="environment">Variables to set (a null value removes the variable).</param>
    /// <param name="workingDirectory">Working directory, or null for the current one.</param>
    /// <param name="timeout">Kill the tree after this long.</param>
    /// <param name="onOutputLine">Sees each stdout line; returns true when it consumed the line.</param>
    /// <param name="cancellationToken">Kills the tree when cancelled, then throws.</param>
    public static Task<ChildProcessResult> RunAsync(
        string fileName,
        IEnumerable<string> arguments,
        IReadOnlyDictionary<string, string?>? environment,
        string? workingDirectory,
        TimeSpan timeout,
        Func<string, bool>? onOutputLine,
        CancellationToken cancellationToken) =>
        RunAsync(fileName, arguments, environment, workingDirectory, timeout, onOutputLine, onStarted: null, cancellationToken);

    /// <inheritdoc cref="RunAsync(string, IEnumerable{string}, IReadOnlyDictionary{string, string?}?, string?, TimeSpan, Func{string, bool}?, CancellationToken)"/>
    /// <remarks><paramref name="onStarted"/> is called once the process is started, with its id. <paramref name="restartable"/>,
    /// when given, restarts the timeout from its call on (a host running several cases gives each case the whole timeout).
    /// <paramref name="onInput"/>, when given, gets the process's standard input, left open for the caller to write to
    /// (a host taking turns); otherwise it is closed at once.</remarks>
    internal static async Task<ChildProcessResult> RunAsync(
        string fileName,
        IEnumerable<string> arguments,
        IReadOnlyDictionary<string, string?>? environment,
        string? workingDirectory,
        TimeSpan timeout,
        Func<string, bool>? onOutputLine,
        Action<int>? onStarted,
        CancellationToken cancellationToken,
        RestartableTimeout? restartable = null,
        Action<StreamWriter>? onInput = null)
    {
        var info = StartInfo(fileName, arguments, environment, workingDirectory);

        var stdout = new StringBuilder();
        var stderr = new StringBuilder();
        using var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var outputDone = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var errorDone = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                outputDone.TrySetResult();
                return;
            }

            if (onOutputLine?.Invoke(e.Data) != true)
            {
                lock (stdout)
                {
                    stdout.AppendLine(e.Data);
                }
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                errorDone.TrySetResult();
                return;
            }

            lock (stderr)
            {
                stderr.AppendLine(e.Data);
            }
        };

        // No window for a cancel: a caller cancelled before the start gets no process, and from the start on
        // every way out before the process has exited kills its tree, a cancel that came before the wait
        // included (WaitForExitAsync throws at once on a cancelled token).
        cancellationToken.ThrowIfCancellationRequested();
        using var timeoutSource = new CancellationTokenSource(timeout);
        using var attached = restartable?.Attach(timeoutSource, timeout);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(timeoutSource.Token, cancellationToken);
        var stopwatch = Stopwatch.StartNew();
        try
        {
            process.Start();
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new PerfLabException($"Could not start '{fileName}': {ex.Message}.", "Check that the .NET SDK is installed and on PATH; run `perflab doctor`.", inner: ex);
        }

        var timedOut = false;
        try
        {
            onStarted?.Invoke(process.Id);
            if (onInput is null)
            {
                process.StandardInput.Close();
            }
            else
            {
                onInput(process.StandardInput);
            }

            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            await process.WaitForExitAsync(linked.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (timeoutSource.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            KillTree(process);
            timedOut = true;
        }
        catch
        {
            // Cancelled, or anything else (the caller's onStarted too) before the process has exited.
            KillTree(process);
            throw;
        }

        // Output of a killed tree may never close if a grandchild inherited the pipe: bound the wait.
        await Task.WhenAny(Task.WhenAll(outputDone.Task, errorDone.Task), Task.Delay(TimeSpan.FromSeconds(5), CancellationToken.None)).ConfigureAwait(false);
        stopwatch.Stop();

        string Text(StringBuilder builder)
        {
            lock (builder)
            {
                return builder.ToString();
            }
        }

        return new ChildProcessResult(timedOut ? -1 : process.ExitCode, Text(stdout), Text(stderr), timedOut, stopwatch.Elapsed);
    }

    /// <summary>
    /// How every child process is started: an argument list (never a shell), UTF-8 output and error redirected,
    /// standard input redirected too (closed at once by <see cref="RunAsync(string, IEnumerable{string}, IReadOnlyDictionary{string, string?}?, string?, TimeSpan, Func{string, bool}?, CancellationToken)"/>;
    /// a caller that drives a process itself writes to it or closes it).
    /// </summary>
    /// <param name="fileName">The executable.</param>
    /// <param name="arguments">Arguments, passed as a list.</param>
    /// <param name="environment">Variables to set (a null value removes the variable).</param>
    /// <param name="workingDirectory">Working directory, or null for the current one.</param>
    public static ProcessStartInfo StartInfo(string fileName, IEnumerable<string> arguments, IReadOnlyDictionary<string, string?>? environment = null, string? workingDirectory = null)
    {
        var info = new ProcessStartInfo(fileName)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string?>())
        {
            if (value is null)
            {
                info.Environment.Remove(name);
            }
            else
            {
                info.Environment[name] = value;
            }
        }

        return info;
    }

    private static void KillTree(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit(TimeSpan.FromSeconds(10));
        }
        catch (InvalidOperationException)
        {
            // Already exited.
        }
    }
}

/// <summary>
/// A child process's timeout that its caller restarts (<see cref="Restart"/>, from any thread): each case a multi-case host
/// begins gets the whole timeout, however long the cases before it took. A restart once the process has ended does
/// nothing.
/// </summary>
internal sealed class RestartableTimeout
{
    private readonly object _gate = new();
    private CancellationTokenSource? _source;
    private TimeSpan _timeout;

    /// <summary>Gives the timeout the whole <c>timeout</c> again, counted from now.</summary>
    public void Restart()
    {
        lock (_gate)
        {
            _source?.CancelAfter(_timeout);
        }
    }

    // Ties this to one process's timeout until the returned value is disposed (before the source is).
    internal IDisposable Attach(CancellationTokenSource source, TimeSpan timeout)
    {
        lock (_gate)
        {
            (_source, _timeout) = (source, timeout);
        }

        return new Detach(this);
    }

    private sealed class Detach(RestartableTimeout owner) : IDisposable
    {
        public void Dispose()
        {
            lock (owner._gate)
            {
                owner._source = null;
            }
        }
    }
}
