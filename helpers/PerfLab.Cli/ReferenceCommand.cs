using System.CommandLine;
using PerfLab.Contract;
using PerfLab.Course.Reference;

namespace PerfLab.Cli;

/// <summary>`perflab reference`: the course's reference job (ReferenceJob), its options and its report.</summary>
internal static class ReferenceCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var outFolder = new Option<string>("--out", "-o") { Description = "Where the results file goes: OUT/NAME.json (the repository keeps them in data/reference/machines).", HelpName = "OUT", Required = true };
        var name = new Option<string?>("--name") { Description = "The machine's name in the file name (default: platform and host name), e.g. ubuntu-x64.", HelpName = "NAME" };
        var mode = SharedOptions.Mode("Benchmark mode", $"Default: {ModeChoice.Name(ReferenceJob.Mode)}, whatever {ModeChoice.Variable} says: {ReferenceJob.ModeReason}.");
        var notebooks = new Option<string[]>("--notebooks")
        {
            Description = "Notebooks (files or folders) whose benchmarks join the suite; they run top to bottom as `perflab run` runs them. Default: the repository's notebooks folder.",
            HelpName = "PATH",
            AllowMultipleArgumentsPerToken = true,
        };
        var suiteOnly = new Option<bool>("--suite-only") { Description = "Only data/reference/suite, no notebook." };
        var noSuite = new Option<bool>("--no-suite") { Description = "Only the notebooks, not data/reference/suite." };
        var update = new Option<bool>("--update") { Description = "Keep the runs already in OUT/NAME.json (same mode) of every suite file and notebook this job does not run again; the others are replaced. Without it the file is written anew." };
        var onlyMissing = new Option<bool>("--only-missing")
        {
            Description = "Measure only the benchmarks whose code OUT/NAME.json has no run of (a cell added or changed since), keep every run it has, and add the new ones (implies --update). The notebooks still run top to bottom; a call the file has is answered from it.",
        };
        var launches = SharedOptions.Launches($"Host processes per case and runtime; the ratios' intervals then cover what changes from one process to the next. Default: the mode's ({ModeChoice.Launches(BenchmarkMode.Full)} in full mode, {ModeChoice.Launches(BenchmarkMode.Quick)} in quick). A notebook cell that names its own keeps them.");
        var command = new Command("reference", "The course's reference job: run the suite in data/reference/suite and every notebook's benchmarks on every runtime, fresh, and write the results with this machine's description.")
        {
            outFolder, name, mode, notebooks, suiteOnly, noSuite, update, onlyMissing, launches,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            // Checked before anything runs: a bad name must not cost an hour of measuring.
            var machineName = ReferenceJob.MachineName(parse.GetValue(name));
            var choice = ModeChoice.Resolve(parse.GetValue(mode), ReferenceJob.Mode, "perflab reference");
            error.WriteLine(choice.Line);
            if (choice.Origin != ModeChoice.OptionOrigin)
            {
                error.WriteLine($"  Not {ModeChoice.Variable}, nor {ModeChoice.Name(ModeChoice.Default)}: {ReferenceJob.ModeReason}. Give --mode to choose another.");
            }

            if (parse.GetValue(suiteOnly) && parse.GetValue(noSuite))
            {
                throw new PerfLabException("--suite-only and --no-suite exclude each other: nothing would run.", "Give one of them, or neither for the whole job.");
            }

            IReadOnlyList<string>? paths = parse.GetValue(suiteOnly) ? [] : parse.GetValue(notebooks) is { Length: > 0 } given ? given : null;
            var request = new ReferenceRequest(parse.GetValue(outFolder)!, machineName, choice, paths, Suite: !parse.GetValue(noSuite), parse.GetValue(update), parse.GetValue(onlyMissing), parse.GetValue(launches));
            using var printer = new ProgressPrinter(error);
            var result = await ReferenceJob.RunAsync(
                request,
                printer,
                line =>
                {
                    // The suite's progress line is cleared first, so a line never lands in the middle of it.
                    printer.Finish();
                    error.WriteLine(line);
                },
                cancellationToken).ConfigureAwait(false);
            printer.Finish();
            foreach (var run in result.Runs)
            {
                output.WriteLine();
                output.WriteLine(run.Run.Source);
                output.Write(run.Run.ToString());
            }

            output.WriteLine($"Reference results: {result.File} ({result.Runs.Count} runs, {result.Runs.Sum(r => r.Run.Results.Count)} cases)");
            if (request.OnlyMissing)
            {
                output.WriteLine($"--only-missing: {result.Kept} benchmark runs were in the file already and kept; {result.Runs.Count} measured and added.");
            }

            return result.HasErrors ? PerfLabCommand.Failure : 0;
        }).ConfigureAwait(false));
        return command;
    }
}
