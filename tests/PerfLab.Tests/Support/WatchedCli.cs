using System.Diagnostics;
using System.Text;

namespace PerfLab.Tests.Support;

/// <summary>A `perflab` process whose stderr a test watches for a line, e.g. the measuring lock's wait or a case starting.</summary>
public static class WatchedCli
{
    /// <summary>
    /// Starts perflab with <paramref name="home"/> as its PerfLab home, collects its stderr in <paramref name="errors"/>
    /// and completes <paramref name="seen"/> once a stderr line contains <paramref name="signal"/>.
    /// </summary>
    /// <param name="args">perflab's arguments.</param>
    /// <param name="home">Its PERFLAB_HOME.</param>
    /// <param name="errors">Where its stderr lines go, as they come.</param>
    /// <param name="signal">The text that completes <paramref name="seen"/>.</param>
    /// <param name="seen">Completed at the first stderr line holding <paramref name="signal"/>.</param>
    /// <param name="sigintAtDefault">Start it with SIGINT at its default, as a terminal's foreground job has it.</param>
    /// <param name="cpu">Pin it to this CPU (taskset), with everything it starts.</param>
    public static Process Start(string[] args, string home, StringBuilder errors, string signal, TaskCompletionSource seen, bool sigintAtDefault = false, string? cpu = null)
    {
        var environment = new Dictionary<string, string> { ["PERFLAB_HOME"] = home };
        string[] pinned = cpu is null ? [] : ["taskset", "-c", cpu];
        var process = sigintAtDefault
            ? CliProcess.StartProgram("env", ["--default-signal=INT", .. pinned, "dotnet", CliProcess.CliAssembly, .. args], environment)
            : CliProcess.Start(args, environment);
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                return;
            }

            lock (errors)
            {
                errors.AppendLine(e.Data);
            }

            if (e.Data.Contains(signal, StringComparison.Ordinal))
            {
                seen.TrySetResult();
            }
        };
        process.OutputDataReceived += (_, _) => { };
        process.BeginErrorReadLine();
        process.BeginOutputReadLine();
        return process;
    }
}
