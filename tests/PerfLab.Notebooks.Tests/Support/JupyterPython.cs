using System.Diagnostics;

namespace PerfLab.Notebooks.Tests.Support;

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

    public static Process Start(string program, IEnumerable<string> args, IReadOnlyDictionary<string, string> environment, bool redirectInput = false, string? workingDirectory = null) =>
        CliProcess.StartProgram(program, args, environment, workingDirectory, redirectInput);

    public static async Task<CliResult> RunAsync(string program, IEnumerable<string> args, IReadOnlyDictionary<string, string> environment, TimeSpan timeout, string? workingDirectory = null)
    {
        using var process = Start(program, args, environment, workingDirectory: workingDirectory);
        return await CliProcess.CompleteAsync(process, timeout).ConfigureAwait(false);
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
