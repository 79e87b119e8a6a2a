using System.CommandLine;
using System.Diagnostics;
using PerfLab.Course.Setup;

namespace PerfLab.Cli;

/// <summary>`perflab setup`: what ./setup.sh runs after building (CourseSetup).</summary>
internal static class SetupCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var from = new Option<string?>("--from") { Description = "Install from an offline kit made by `perflab prefetch` (no network needed).", HelpName = "KIT" };
        var noKernel = new Option<bool>("--no-kernel") { Description = "Do not install the course's Jupyter kernel." };
        var command = new Command("setup", "Get this machine ready: provision the pinned runtimes, install the Jupyter kernel when Jupyter is here, then run the doctor. Safe to run again. (./setup.sh builds the helpers first and calls this.)")
        {
            from, noKernel,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var watch = Stopwatch.StartNew();
            var kernel = parse.GetValue(noKernel) ? null : KernelCommand.SelfCommand();
            var ready = await CourseSetup.RunAsync(parse.GetValue(from), kernel, output.WriteLine, cancellationToken).ConfigureAwait(false);
            output.WriteLine(ready
                ? $"Set up in {watch.Elapsed.TotalSeconds:0} s. Open notebooks/00-start-here.ipynb, or run it headless: dotnet run --project helpers/PerfLab.Cli -- run notebooks/00-start-here.ipynb"
                : "Setup is not complete: fix what the doctor marks FAIL, then run setup again.");
            return ready ? 0 : PerfLabCommand.Failure;
        }).ConfigureAwait(false));
        return command;
    }
}
