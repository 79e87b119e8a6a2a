using System.CommandLine;
using System.Diagnostics;
using PerfLab.Course;
using PerfLab.Course.Timings;
using PerfLab.Files;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Notebooks.Views;
using PerfLab.Results;

namespace PerfLab.Cli;

/// <summary>`perflab run`: notebooks executed headless, top to bottom, each written as a standalone HTML report.</summary>
internal static class RunCommand
{
    private static string Count(int count, string noun) => $"{count} {noun}{(count == 1 ? "" : "s")}";

    public static Command Create(TextWriter output, TextWriter error)
    {
        var path = new Argument<string>("NOTEBOOK|FOLDER") { Description = "A .ipynb notebook, or a folder: every notebook under it, in path order." };
        var mode = SharedOptions.Mode("Benchmark mode of every cell");
        var outFolder = new Option<string>("--out", "-o")
        {
            Description = "Folder for the HTML reports (one per notebook, the folder's layout kept).",
            DefaultValueFactory = _ => "reports",
            HelpName = "DIR",
        };
        var writeOutputs = new Option<bool>("--write-outputs") { Description = "Also store the outputs in the notebook files themselves (off by default: notebooks are kept clean for git)." };
        var verbose = new Option<bool>("--verbose") { Description = "Print the benchmarks' progress as lines, one per step of each launch, instead of one status line rewritten in place; redirected output always gets the lines." };
        var timingsFile = new Option<string?>("--timings")
        {
            Description = "Also time each notebook with empty result, listing and build caches (a home of this run's own that shares only the provisioned runtimes) and record its total and per-cell seconds, content key, mode, date, commit, machine and load in FILE: the entries of the notebooks run are replaced, the others kept. The course's file is " + CourseRepository.TimingsFile + " (quick mode).",
            HelpName = "FILE",
        };
        var command = new Command("run", "Run notebooks headless, top to bottom, with the course's C# kernel engine, and write an HTML report for each.")
        {
            path, mode, outFolder, writeOutputs, verbose, timingsFile,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var (root, notebooks) = NotebookFiles.Find(parse.GetValue(path)!);
            // Resolved once for the whole run: every notebook's cells get it with where it came from.
            var chosen = ModeChoice.Resolve(parse.GetValue(mode));
            var reports = Path.GetFullPath(parse.GetValue(outFolder)!);

            // Checked before anything runs: a timing run must not find out at its end that it cannot write, or that a
            // notebook has no name in the course's repository.
            var timings = parse.GetValue(timingsFile) is { } timingsPath ? TimingsFile.Open(timingsPath, chosen.Mode) : null;
            var repository = timings is null ? null : CourseRepository.Root();
            var timed = notebooks.ToDictionary(n => n, n => repository is null ? null : TimedName(n, repository));
            using var caches = timings is null ? null : FreshCaches.Create(PerfLabHome.Default());
            if (caches is not null)
            {
                error.WriteLine($"Timing with empty caches: a home of this run's own, {caches.Root}, emptied before each notebook (runtimes shared with the user's home).");
            }
            var failures = 0;
            var failedCases = 0;
            // On a terminal the cells' benchmark progress is one status line, their other output lines above it;
            // otherwise (--verbose, a CI log) the runner logs the progress lines with the rest, as the report keeps them.
            using var printer = new ProgressPrinter(error, parse.GetValue(verbose));
            foreach (var notebook in notebooks)
            {
                var name = Path.GetRelativePath(root, notebook);
                error.WriteLine($"▶ {name}");
                caches?.Empty();
                var source = timings is null ? default : await timings.SourceAsync(repository!, cancellationToken).ConfigureAwait(false);
                var loadAtStart = MachineDescription.LoadAverage();
                var clock = Stopwatch.StartNew();
                var run = await new NotebookRunner().RunAsync(notebook, chosen, line => printer.WriteLine($"  [{clock.Elapsed.TotalSeconds,6:F1}s] {line}"), printer.InPlace ? printer : null, cancellationToken: cancellationToken).ConfigureAwait(false);
                printer.Finish();
                var report = await OutputFiles.WriteAsync(Path.Combine(reports, Path.ChangeExtension(name, ".html")), NotebookReport.Page(run), cancellationToken).ConfigureAwait(false);
                if (parse.GetValue(writeOutputs))
                {
                    await WriteOutputsAsync(run, cancellationToken).ConfigureAwait(false);
                }

                var executed = run.Cells.Count(c => c.ExecutionCount is not null);
                failedCases += run.FailedCases;
                if (run.FirstFailure is { } failed)
                {
                    failures++;
                    var problem = failed.Outputs.OfType<ErrorOutput>().FirstOrDefault();
                    output.WriteLine($"✗ {name}: {failed.Cell.Name} failed ({ModeChoice.Name(run.Mode)} mode, {run.Duration.TotalSeconds:F1} s)");
                    error.WriteLine($"error: {name}, {failed.Cell.Name}: {problem?.Message ?? "the cell failed"}");
                    foreach (var line in problem?.Details ?? [])
                    {
                        error.WriteLine($"  {line}");
                    }
                }
                else
                {
                    output.WriteLine($"✓ {name}: {executed} code cells ran ({ModeChoice.Name(run.Mode)} mode, {run.Duration.TotalSeconds:F1} s)");
                }

                output.WriteLine($"  report: {report}");
                if (timings is not null)
                {
                    if (run.Succeeded)
                    {
                        var timing = await timings.RecordAsync(timed[notebook]!, run, new LoadAverages(loadAtStart, MachineDescription.LoadAverage()), source, cancellationToken).ConfigureAwait(false);
                        output.WriteLine($"  timing: {timing.Notebook} {TimingsFile.Seconds(timing.Seconds)}, {timing.Cells.Count} code cells, written to {timings.Path}");
                    }
                    else
                    {
                        output.WriteLine($"  timing: not recorded, the run failed ({timings.Path} keeps {(timings.Of(timed[notebook]!) is null ? "no timing" : "the earlier timing")} of {timed[notebook]})");
                    }
                }
            }

            // The count a terminal or CI reads last: notebooks that failed, and benchmark cases that failed in them.
            if (notebooks.Count > 1 || failures > 0)
            {
                output.WriteLine(
                    $"{Count(notebooks.Count, "notebook")}: {notebooks.Count - failures} ran without error, {failures} failed" +
                    (failedCases == 0 ? "" : $"; {Count(failedCases, "benchmark case")} failed"));
            }

            return failures == 0 ? 0 : PerfLabCommand.Failure;
        }).ConfigureAwait(false));
        return command;
    }

    // A timing names the notebook by its path in the repository, as the docs' markers do.
    private static string TimedName(string notebook, string repository)
    {
        var relative = CourseRepository.Relative(notebook, repository);
        if (relative.StartsWith("../", StringComparison.Ordinal) || Path.IsPathRooted(relative))
        {
            throw new PerfLabException($"--timings records the course's notebooks, by their path in the repository ({repository}); {notebook} is outside it.", "Time a notebook of the course, e.g. notebooks/00-start-here.ipynb, or leave out --timings.");
        }

        return relative;
    }

    // An interrupted write never leaves half a notebook.
    private static async Task WriteOutputsAsync(NotebookRun run, CancellationToken cancellationToken)
    {
        var outputs = run.Cells.Where(c => c.Cell.Kind == CellKind.Code)
            .ToDictionary(c => c.Cell.Index, c => (c.Outputs, c.ExecutionCount));
        await AtomicFile.WriteAllTextAsync(run.Notebook.Path, run.Notebook.WithOutputs(outputs), cancellationToken).ConfigureAwait(false);
    }
}
