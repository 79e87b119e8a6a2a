using System.CommandLine;
using PerfLab.Course.Setup;

namespace PerfLab.Cli;

/// <summary>`perflab doctor`: every check of the course's Doctor, each with a fix; exits 1 when one fails.</summary>
internal static class DoctorCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var command = new Command("doctor", "Check the SDK, the benchmark host, the notebook helpers, runtimes, the Jupyter kernel, disk, write access and package sources, with a fix for each problem; and say whether the optional .NET Interactive tool is restored.");
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
            await new Doctor().ReportAsync(output.WriteLine, cancellationToken).ConfigureAwait(false) == 0 ? 0 : PerfLabCommand.Failure).ConfigureAwait(false));
        return command;
    }
}
