using System.Diagnostics;
using System.Text;

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

    public static Process Start(IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, string? workingDirectory = null) =>
        StartProgram("dotnet", [CliAssembly, .. args], environment, workingDirectory);

    /// <summary>Starts any program with redirected output; arguments never go through a shell.</summary>
    public static Process StartProgram(string program, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, string? workingDirectory = null, bool redirectInput = false)
    {
        var info = new ProcessStartInfo(program)
        {
            RedirectStandardInput = redirectInput,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        return Process.Start(info)!;
    }

    public static async Task<CliResult> RunAsync(IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? timeout = null, string? workingDirectory = null)
    {
        using var process = Start(args, environment, workingDirectory);
        return await CompleteAsync(process, timeout).ConfigureAwait(false);
    }

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
