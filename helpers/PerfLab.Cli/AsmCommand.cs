using System.CommandLine;
using PerfLab.Benchmarks;
using PerfLab.Disassembly;
using PerfLab.Runtimes;
using PerfLab.Views.Html;

namespace PerfLab.Cli;

/// <summary>`perflab asm`: the code the JIT generates for a method on each runtime, side by side.</summary>
internal static class AsmCommand
{
    public static Command Create(TextWriter output, TextWriter error)
    {
        var file = new Argument<string>("FILE") { Description = "A C# file holding the benchmark class." };
        var method = new Option<string[]>("--method")
        {
            Description = "The method(s) to show: a name (Sum), Class.Name, Name(int[]) for one overload, a property or a local function; lambdas and local functions inside it come along. Default: every [Benchmark] method.",
            AllowMultipleArgumentsPerToken = true,
        };
        var runtimes = SharedOptions.Runtimes(SharedOptions.ComparedRuntimes);
        var fullOpts = new Option<bool>("--fullopts") { Description = "Tiering off: the fully optimized first compile that SharpLab and Compiler Explorer show (no dynamic PGO)." };
        var noPgo = new Option<bool>("--no-pgo") { Description = "The steady state without dynamic PGO (DOTNET_TieredPGO=0)." };
        var tier0 = new Option<bool>("--tier0") { Description = "The first, unoptimized Tier0 code instead of the steady state." };
        var env = SharedOptions.Environment("An environment variable for the processes, e.g. DOTNET_EnableAVX512F=0 to see the code for a CPU without AVX-512 (repeat the option for more).");
        var html = SharedOptions.OutputFile("--html", "Also write the side-by-side view as a standalone HTML page.");
        var force = new Option<bool>("--force") { Description = "Capture even when cached listings for the same source and options exist." };
        var command = new Command("asm", "Show the code the JIT generates for a method on each runtime, steady state by default, with what changed between runtimes.")
        {
            file, method, runtimes, fullOpts, noPgo, tier0, env, html, force,
        };
        command.SetAction(async (parse, cancellationToken) => await PerfLabCommand.Guard(error, async () =>
        {
            var source = BenchmarkRequest.FromFile(parse.GetValue(file)!);
            var request = new AsmRequest
            {
                Source = source.Source,
                SourcePath = source.SourcePath,
                Methods = parse.GetValue(method) ?? [],
                Runtimes = RuntimeCatalog.FindAll(parse.GetValue(runtimes)),
                FullOpts = parse.GetValue(fullOpts),
                NoPgo = parse.GetValue(noPgo),
                Tier0 = parse.GetValue(tier0),
                Environment = BenchmarkRequest.ParseEnvironment(parse.GetValue(env) ?? []),
                Force = parse.GetValue(force),
            };
            var report = await new AsmEngine().CaptureAsync(request, m => error.WriteLine(m), cancellationToken).ConfigureAwait(false);
            output.Write(report.ToString());
            await OutputFiles.WriteAsync(parse, html, "HTML", () => AsmHtml.Page(report), output, cancellationToken).ConfigureAwait(false);
            return 0;
        }).ConfigureAwait(false));
        return command;
    }
}
