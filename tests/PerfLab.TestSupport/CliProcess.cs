using System.Diagnostics;
using PerfLab.Processes;

namespace PerfLab.Tests.Support;

/// <summary>How a `perflab` process ended.</summary>
public sealed record CliResult(int ExitCode, string Output, string Error)
{
    public override string ToString() => $"exit {ExitCode}\n--- stdout\n{Output}\n--- stderr\n{Error}";
}

/// <summary>Runs the real `perflab` command (the built PerfLab.Cli.dll next to the tests) as a process.</summary>
public static class CliProcess
{
    public static string CliAssembly => Path.Combine(AppContext.BaseDirectory, "PerfLab.Cli.dll");

    // A child given no folder starts in the test's output folder, never in the test process's current one: a notebook
    // run in the test process makes its own (temporary) folder current while it runs, and its test deletes it after.
    private static string Folder => AppContext.BaseDirectory;

    public static Process Start(IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, string? workingDirectory = null) =>
        StartProgram("dotnet", [CliAssembly, .. args], environment, workingDirectory);

    /// <summary>
    /// Starts any program for a test to drive (signals, stdin, lines as they come), the way the product starts
    /// every child (<see cref="ChildProcess.StartInfo"/>: an argument list, never a shell). Standard input is
    /// closed at once unless <paramref name="redirectInput"/>.
    /// </summary>
    public static Process StartProgram(string program, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, string? workingDirectory = null, bool redirectInput = false)
    {
        var process = Process.Start(ChildProcess.StartInfo(program, args, Nullable(environment), workingDirectory ?? Folder))!;
        if (!redirectInput)
        {
            process.StandardInput.Close();
        }

        return process;
    }

    /// <summary>Runs `perflab` to completion with the product's <see cref="ChildProcess"/>; its tree is killed after <paramref name="timeout"/> (default 5 minutes).</summary>
    public static async Task<CliResult> RunAsync(IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? timeout = null, string? workingDirectory = null)
    {
        string[] arguments = [CliAssembly, .. args];
        var limit = timeout ?? TimeSpan.FromMinutes(5);
        var result = await ChildProcess.RunAsync("dotnet", arguments, Nullable(environment), workingDirectory ?? Folder, limit, onOutputLine: null, CancellationToken.None).ConfigureAwait(false);
        if (result.TimedOut)
        {
            throw new TimeoutException($"dotnet {string.Join(' ', arguments)} did not finish within {limit}; killed with its tree.\n--- stdout\n{result.StandardOutput}\n--- stderr\n{result.StandardError}");
        }

        return new CliResult(result.ExitCode, result.StandardOutput, result.StandardError);
    }

    /// <summary>Waits for a process a test started with <see cref="StartProgram"/>; its tree is killed after <paramref name="timeout"/> (default 5 minutes).</summary>
    public static async Task<CliResult> CompleteAsync(Process process, TimeSpan? timeout = null)
    {
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var limit = new CancellationTokenSource(timeout ?? TimeSpan.FromMinutes(5));
        try
        {
            await process.WaitForExitAsync(limit.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
            throw new TimeoutException($"{process.StartInfo.FileName} {string.Join(' ', process.StartInfo.ArgumentList)} did not finish within {timeout}; killed with its tree.\n--- stdout\n{await output.ConfigureAwait(false)}\n--- stderr\n{await error.ConfigureAwait(false)}");
        }

        return new CliResult(process.ExitCode, await output.ConfigureAwait(false), await error.ConfigureAwait(false));
    }

    private static Dictionary<string, string?>? Nullable(IReadOnlyDictionary<string, string>? environment) =>
        environment?.ToDictionary(e => e.Key, e => (string?)e.Value);

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
}
