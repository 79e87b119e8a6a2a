using System.CommandLine;
using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Disassembly;
using PerfLab.Views.Json;
using PerfLab.Runtimes;
using PerfLab.Views.Html;

namespace PerfLab.Cli;

/// <summary>`perflab bench`: a C# file of BenchmarkDotNet classes compiled and run on each runtime, out of process.</summary>
internal static class BenchCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var file = new Argument<string>("FILE") { Description = "A C# file holding one or more BenchmarkDotNet classes." };
        var runtimes = SharedOptions.Runtimes("Runtimes to run on, in order; the first is the ratio baseline.");
        var mode = SharedOptions.Mode("Benchmark mode");
        var filter = new Option<string[]>("--filter", "-f")
        {
            Description = "Glob patterns over Namespace.Class.Method, e.g. '*Sum*' (as BenchmarkDotNet's --filter).",
            AllowMultipleArgumentsPerToken = true,
            HelpName = "PATTERN",
        };
        var env = SharedOptions.Environment("An environment variable for the benchmark processes, e.g. DOTNET_TieredPGO=0 (repeat the option for more).");
        var json = SharedOptions.OutputFile("--json", "Also write the results as JSON (docs/results-schema.md).");
        var html = SharedOptions.OutputFile("--html", "Also write a standalone HTML page: the table and the charts (works offline).");
        var force = new Option<bool>("--force") { Description = "Run even when a cached result for the same source and options exists (with --disasm, capture the asm again too)." };
        var disasm = new Option<bool>("--disasm") { Description = "Also show the steady-state assembly of every benchmark method on each runtime (as `perflab asm`)." };
        var launches = SharedOptions.Launches($"Host processes per case and runtime; the ratios' intervals then cover what changes from one process to the next. Default: the mode's ({ModeChoice.Launches(BenchmarkMode.Quick)} in quick mode, {ModeChoice.Launches(BenchmarkMode.Full)} in full and smoke).");
        var caseTimeout = SharedOptions.Seconds("--case-timeout", $"Kill a case's process after this many seconds (default: {ModeChoice.InSeconds(ModeChoice.CaseTimeout)}).");
        var verbose = new Option<bool>("--verbose") { Description = "Print a line per step of each launch (runtime, case, launch, phase) instead of one status line rewritten in place; redirected output always gets the lines." };
        var timeout = SharedOptions.Seconds("--timeout", $"Stop the whole run after this many seconds (default: {ModeChoice.InSeconds(ModeChoice.RunTimeout)}).");

        var command = new Command("bench", "Compile a C# file of BenchmarkDotNet classes and run it on each runtime, out of process.")
        {
            file, runtimes, mode, filter, env, json, html, force, disasm, launches, caseTimeout, timeout, verbose,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var chosen = ModeChoice.Resolve(parse.GetValue(mode));
            var request = BenchmarkRequest.FromFile(parse.GetValue(file)!) with
            {
                Runtimes = RuntimeCatalog.FindAll(parse.GetValue(runtimes)),
                Mode = chosen.Mode,
                Filter = parse.GetValue(filter) ?? [],
                Environment = BenchmarkRequest.ParseEnvironment(parse.GetValue(env) ?? []),
                Force = parse.GetValue(force),
                CaseTimeout = parse.GetValue(caseTimeout),
                RunTimeout = parse.GetValue(timeout),
                Launches = parse.GetValue(launches),
            };
            error.WriteLine(chosen.Line);
            using var printer = new ProgressPrinter(error, parse.GetValue(verbose));
            var run = await new BenchmarkEngine().RunAsync(request, printer, cancellationToken).ConfigureAwait(false);
            printer.Finish();
            output.WriteLine();
            output.Write(run.ToString());
            await OutputFiles.WriteAsync(parse, json, "JSON", () => ResultJson.Serialize(run), output, cancellationToken).ConfigureAwait(false);
            await OutputFiles.WriteAsync(parse, html, "HTML", () => ResultsHtml.Page(run, Path.GetFileName(request.SourcePath) + " on " + string.Join(", ", run.Runtimes.Select(r => r.Moniker))), output, cancellationToken).ConfigureAwait(false);
            if (parse.GetValue(disasm) && run.Results.Any(r => r.Error is null))
            {
                var asm = await new AsmEngine().CaptureAsync(
                    new AsmRequest { Source = request.Source, SourcePath = request.SourcePath, Runtimes = request.Runtimes, Force = request.Force },
                    m => error.WriteLine(m),
                    cancellationToken).ConfigureAwait(false);
                output.WriteLine();
                output.Write(asm.ToString());
            }

            return run.HasErrors ? PerfLabCommand.Failure : 0;
        }).ConfigureAwait(false));
        return command;
    }
}
