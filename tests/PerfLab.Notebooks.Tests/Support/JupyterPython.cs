using System.Diagnostics;
using System.Text;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>How a Python driver or jupyter command ended.</summary>
public sealed record JupyterRun(int ExitCode, string Output, string Error)
{
    public override string ToString() => $"exit {ExitCode}\n--- stdout\n{Output}\n--- stderr\n{Error}";
}

/// <summary>
/// Runs Debian's Jupyter tools (always /usr/bin/python3 and /usr/bin/jupyter: the first python3 on PATH
/// lacks jupyter_client and nbclient) and the driver scripts copied next to the tests (jupyter/*.py).
/// Arguments never go through a shell; a run past its timeout is killed with its whole process tree.
/// </summary>
public static class JupyterPython
{
    public const string Python = "/usr/bin/python3";

    public const string Jupyter = "/usr/bin/jupyter";

    /// <summary>A driver script in the test output (jupyter/NAME).</summary>
    public static string Script(string name) => Path.Combine(AppContext.BaseDirectory, "jupyter", name);

    public static Process Start(string program, IEnumerable<string> args, IReadOnlyDictionary<string, string> environment, bool redirectInput = false)
    {
        var info = new ProcessStartInfo(program)
        {
            RedirectStandardInput = redirectInput,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
        };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        foreach (var (name, value) in environment)
        {
            info.Environment[name] = value;
        }

        return Process.Start(info)!;
    }

    public static async Task<JupyterRun> RunAsync(string program, IEnumerable<string> args, IReadOnlyDictionary<string, string> environment, TimeSpan timeout)
    {
        using var process = Start(program, args, environment);
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var limit = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(limit.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
            throw new TimeoutException($"{program} {string.Join(' ', args)} did not finish within {timeout}; killed.\n--- stdout\n{await output.ConfigureAwait(false)}\n--- stderr\n{await error.ConfigureAwait(false)}");
        }

        return new JupyterRun(process.ExitCode, await output.ConfigureAwait(false), await error.ConfigureAwait(false));
    }

    /// <summary>Processes whose command line mentions <paramref name="marker"/> (Linux /proc), to prove none is left behind.</summary>
    public static IReadOnlyList<string> ProcessesMentioning(string marker)
    {
        var found = new List<string>();
        if (!OperatingSystem.IsLinux())
        {
            return found;
        }

        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), out var pid) || pid == Environment.ProcessId)
            {
                continue;
            }

            try
            {
                var commandLine = File.ReadAllText(Path.Combine(dir, "cmdline")).Replace('\0', ' ');
                if (commandLine.Contains(marker, StringComparison.Ordinal))
                {
                    found.Add($"{pid}: {commandLine}");
                }
            }
            catch (IOException)
            {
            }
            catch (UnauthorizedAccessException)
            {
            }
        }

        return found;
    }

    /// <summary>Whether a process with this id still exists (a zombie counts as gone).</summary>
    public static bool IsRunning(int pid)
    {
        try
        {
            var status = File.ReadAllText($"/proc/{pid}/status");
            return !status.Contains("State:\tZ", StringComparison.Ordinal);
        }
        catch (IOException)
        {
            return false;
        }
        catch (UnauthorizedAccessException)
        {
            return true;
        }
    }
}
