using System.CommandLine;
using PerfLab.Cli;

namespace PerfLab.Tests.Support;

/// <summary>The `perflab` command run in this process, its output and errors captured.</summary>
public static class InProcessCli
{
    public static async Task<(int ExitCode, string Output, string Error)> InvokeAsync(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var exitCode = await PerfLabCommand.Create(output, error).Parse(args).InvokeAsync(new InvocationConfiguration { Output = output, Error = error });
        return (exitCode, output.ToString(), error.ToString());
    }
}
