using System.CommandLine;
using System.Globalization;
using PerfLab.Benchmarks;
using PerfLab.Course;
using PerfLab.Course.Reference;
using PerfLab.Disassembly;
using PerfLab.Files;
using PerfLab.GeneratedRegexSource;
using PerfLab.Notebooks;
using PerfLab.Results;
using PerfLab.Runtimes;
using PerfLab.Views.Html;
using PerfLab.Views.Json;
using PerfLab.Views.Terminal;

namespace PerfLab.Cli;

/// <summary>The `perflab` command line: bench, asm, regex, runtimes, doctor, run (notebooks), kernel, setup, prefetch, reference, fidelity, site, corpus.</summary>
internal static class PerfLabCommand
{
    public const int Failure = 1;
    public const int Cancelled = 130;

    public static RootCommand Create(TextWriter output, TextWriter error)
    {
        var root = new RootCommand($"PerfLab: run BenchmarkDotNet benchmarks on {RuntimeCatalog.InWords}, each runtime in its own process.")
        {
            Bench(output, error),
            Asm(output, error),
            Regex(output, error),
            Runtimes(output, error),
            SetupCommands.Doctor(output, error),
            NotebookCommands.Run(output, error),
            KernelCommands.Kernel(output, error),
            SetupCommands.Setup(output, error),
            SetupCommands.Prefetch(output, error),
            Reference(output, error),
            Fidelity(output, error),
            SiteCommand.Create(output, error),
            CorpusCommand.Create(output, error),
        };
        return root;
    }

    private static Command Bench(TextWriter output, TextWriter error)
    {
        var file = new Argument<string>("FILE") { Description = "A C# file holding one or more BenchmarkDotNet classes." };
        var runtimes = new Option<string[]>("--runtimes", "-r")
        {
            Description = $"Runtimes to run on, in order; the first is the ratio baseline. Known: {string.Join(", ", RuntimeCatalog.Monikers)}.",
            AllowMultipleArgumentsPerToken = true,
            DefaultValueFactory = _ => RuntimeCatalog.DefaultMonikers.ToArray(),
        };
        var mode = new Option<string?>("--mode", "-m")
        {
            Description = $"Benchmark mode: {ModeChoice.Choices}. {ModeChoice.DefaultHelp}",
        };
        mode.AcceptOnlyFromAmong([.. ModeChoice.Names]);
        var filter = new Option<string[]>("--filter", "-f")
        {
            Description = "Glob patterns over Namespace.Class.Method, e.g. '*Sum*' (as BenchmarkDotNet's --filter).",
            AllowMultipleArgumentsPerToken = true,
            HelpName = "PATTERN",
        };
        var env = new Option<string[]>("--env", "-e")
        {
            Description = "An environment variable for the benchmark processes, e.g. DOTNET_TieredPGO=0 (repeat the option for more).",
            HelpName = "NAME=VALUE",
        };
        var json = new Option<string?>("--json") { Description = "Also write the results as JSON (docs/results-schema.md).", HelpName = "OUT" };
        var html = new Option<string?>("--html") { Description = "Also write a standalone HTML page: the table and the charts (works offline).", HelpName = "OUT" };
        var force = new Option<bool>("--force") { Description = "Run even when a cached result for the same source and options exists (with --disasm, capture the asm again too)." };
        var disasm = new Option<bool>("--disasm") { Description = "Also show the steady-state assembly of every benchmark method on each runtime (as `perflab asm`)." };
        var caseTimeout = Seconds("--case-timeout", $"Kill a case's process after this many seconds (default: {ModeChoice.InSeconds(ModeChoice.CaseTimeout)}).");
        var timeout = Seconds("--timeout", $"Stop the whole run after this many seconds (default: {ModeChoice.InSeconds(ModeChoice.RunTimeout)}).");

        var command = new Command("bench", "Compile a C# file of BenchmarkDotNet classes and run it on each runtime, out of process.")
        {
            file, runtimes, mode, filter, env, json, html, force, disasm, caseTimeout, timeout,
        };
        command.SetAction(async (parse, cancellationToken) =>
        {
            return await Guard(error, async () =>
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
                };
                var jsonPath = parse.GetValue(json);
                error.WriteLine(chosen.Line);
                using var printer = new ProgressPrinter(error);
                var run = await new BenchmarkEngine().RunAsync(request, printer, cancellationToken).ConfigureAwait(false);
                printer.Finish();
                output.WriteLine();
                output.Write(run.ToString());
                if (jsonPath is not null)
                {
                    var full = Path.GetFullPath(jsonPath);
                    Directory.CreateDirectory(Path.GetDirectoryName(full)!);
                    await AtomicFile.WriteAllTextAsync(full, ResultJson.Serialize(run), cancellationToken).ConfigureAwait(false);
                    output.WriteLine($"JSON: {full}");
                }

                if (parse.GetValue(html) is { } htmlPath)
                {
                    var full = Path.GetFullPath(htmlPath);
                    Directory.CreateDirectory(Path.GetDirectoryName(full)!);
                    await AtomicFile.WriteAllTextAsync(full, ResultsHtml.Page(run, Path.GetFileName(request.SourcePath) + " on " + string.Join(", ", run.Runtimes.Select(r => r.Moniker))), cancellationToken).ConfigureAwait(false);
                    output.WriteLine($"HTML: {full}");
                }

                if (parse.GetValue(disasm) && run.Results.Any(r => r.Error is null))
                {
                    var asm = await new AsmEngine().CaptureAsync(
                        new AsmRequest { Source = request.Source, SourcePath = request.SourcePath, Runtimes = request.Runtimes, Force = request.Force },
                        m => error.WriteLine(m),
                        cancellationToken).ConfigureAwait(false);
                    output.WriteLine();
                    output.Write(asm.ToString());
                }

                return run.HasErrors ? Failure : 0;
            }).ConfigureAwait(false);
        });
        return command;
    }

    private static Command Asm(TextWriter output, TextWriter error)
    {
        var file = new Argument<string>("FILE") { Description = "A C# file holding the benchmark class." };
        var method = new Option<string[]>("--method")
        {
            Description = "The method(s) to show: a name (Sum), Class.Name, Name(int[]) for one overload, a property or a local function; lambdas and local functions inside it come along. Default: every [Benchmark] method.",
            AllowMultipleArgumentsPerToken = true,
        };
        var runtimes = new Option<string[]>("--runtimes", "-r")
        {
            Description = $"Runtimes, oldest first; each is compared with the one before. Known: {string.Join(", ", RuntimeCatalog.Monikers)}.",
            AllowMultipleArgumentsPerToken = true,
            DefaultValueFactory = _ => RuntimeCatalog.DefaultMonikers.ToArray(),
        };
        var fullOpts = new Option<bool>("--fullopts") { Description = "Tiering off: the fully optimized first compile that SharpLab and Compiler Explorer show (no dynamic PGO)." };
        var noPgo = new Option<bool>("--no-pgo") { Description = "The steady state without dynamic PGO (DOTNET_TieredPGO=0)." };
        var tier0 = new Option<bool>("--tier0") { Description = "The first, unoptimized Tier0 code instead of the steady state." };
        var env = new Option<string[]>("--env", "-e")
        {
            Description = "An environment variable for the processes, e.g. DOTNET_EnableAVX512F=0 to see the code for a CPU without AVX-512 (repeat the option for more).",
            HelpName = "NAME=VALUE",
        };
        var html = new Option<string?>("--html") { Description = "Also write the side-by-side view as a standalone HTML page.", HelpName = "OUT" };
        var force = new Option<bool>("--force") { Description = "Capture even when cached listings for the same source and options exist." };
        var command = new Command("asm", "Show the code the JIT generates for a method on each runtime, steady state by default, with what changed between runtimes.")
        {
            file, method, runtimes, fullOpts, noPgo, tier0, env, html, force,
        };
        command.SetAction(async (parse, cancellationToken) => await Guard(error, async () =>
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
            if (parse.GetValue(html) is { } htmlPath)
            {
                var full = Path.GetFullPath(htmlPath);
                Directory.CreateDirectory(Path.GetDirectoryName(full)!);
                await AtomicFile.WriteAllTextAsync(full, AsmHtml.Page(report), cancellationToken).ConfigureAwait(false);
                output.WriteLine($"HTML: {full}");
            }

            return 0;
        }).ConfigureAwait(false));
        return command;
    }

    private static Command Regex(TextWriter output, TextWriter error)
    {
        var pattern = new Argument<string>("PATTERN") { Description = "The regular expression, as in [GeneratedRegex(PATTERN)]; quote it for the shell, and put one that starts with - after --: perflab regex -- '-?\\d+'." };
        var options = new Option<string[]>("--options", "-o")
        {
            Description = "RegexOptions names, separated by commas: IgnoreCase,Compiled (as in the attribute's second argument).",
            HelpName = "NAMES",
        };
        var runtimes = new Option<string[]>("--runtimes", "-r")
        {
            Description = $"Runtimes, oldest first; each is compared with the one before. Known: {string.Join(", ", RuntimeCatalog.Monikers)}.",
            AllowMultipleArgumentsPerToken = true,
            DefaultValueFactory = _ => RuntimeCatalog.DefaultMonikers.ToArray(),
        };
        var full = new Option<bool>("--full") { Description = "Also print the whole file each runtime's generator wrote (once per group of identical files)." };
        var html = new Option<string?>("--html") { Description = "Also write the side-by-side view as a standalone HTML page.", HelpName = "OUT" };
        var command = new Command("regex", "Show the C# that [GeneratedRegex] emits for a pattern on each runtime: the explanation, the matcher's two methods and their helpers, with what changed between runtimes.")
        {
            pattern, options, runtimes, full, html,
        };
        command.SetAction(async (parse, cancellationToken) => await Guard(error, async () =>
        {
            // Both checked before the generators load: a typo gets its message at once.
            var chosen = RegexSource.ParseOptions(parse.GetValue(options));
            var pinned = RuntimeCatalog.FindAll(parse.GetValue(runtimes));
            var report = RegexSource.Generate(parse.GetValue(pattern)!, chosen, pinned, cancellationToken);
            output.Write(RegexSourceTerminalView.Render(report, parse.GetValue(full)));
            if (parse.GetValue(html) is { } htmlPath)
            {
                var path = Path.GetFullPath(htmlPath);
                Directory.CreateDirectory(Path.GetDirectoryName(path)!);
                await AtomicFile.WriteAllTextAsync(path, RegexSourceHtml.Page(report), cancellationToken).ConfigureAwait(false);
                output.WriteLine($"HTML: {path}");
            }

            return 0;
        }).ConfigureAwait(false));
        return command;
    }

    private static Command Runtimes(TextWriter output, TextWriter error)
    {
        var provision = new Option<bool>("--provision") { Description = "Provision every missing runtime now (downloads runtime packs through NuGet)." };
        var command = new Command("runtimes", "List the runtimes the course uses: version, installed or provisioned, path.") { provision };
        command.SetAction(async (parse, cancellationToken) => await Guard(error, async () =>
        {
            var locator = new RuntimeLocator(PerfLabHome.Default());
            var rows = new List<LocatedRuntime>();
            foreach (var runtime in RuntimeCatalog.All)
            {
                rows.Add(parse.GetValue(provision)
                    ? await locator.EnsureAsync(runtime, m => error.WriteLine(m), cancellationToken).ConfigureAwait(false)
                    : locator.Locate(runtime));
            }

            var width = rows.Max(r => r.Pinned.Moniker.Length);
            output.WriteLine($"{"Runtime".PadRight(width)}  {"Version",-8}  {"Source",-11}  Path");
            foreach (var row in rows)
            {
                var source = row.Source.Name();
                var path = row.Path ?? "(provisioned from NuGet on first use, or with --provision)";
                output.WriteLine($"{row.Pinned.Moniker.PadRight(width)}  {row.Pinned.Version,-8}  {source,-11}  {path}");
            }

            var others = locator.Sdk.FrameworkVersions().Where(v => RuntimeCatalog.All.All(r => r.Version != v)).ToArray();
            if (others.Length > 0)
            {
                output.WriteLine($"Also installed, not used (the course pins exact versions): {string.Join(", ", others)}");
            }

            return 0;
        }).ConfigureAwait(false));
        return command;
    }

    private static Command Reference(TextWriter output, TextWriter error)
    {
        var outFolder = new Option<string>("--out", "-o") { Description = "Where the results file goes: OUT/NAME.json (the repository keeps them in data/reference/machines).", HelpName = "OUT", Required = true };
        var name = new Option<string?>("--name") { Description = "The machine's name in the file name (default: platform and host name), e.g. ubuntu-x64.", HelpName = "NAME" };
        var mode = new Option<string?>("--mode", "-m")
        {
            Description = $"Benchmark mode: {ModeChoice.Choices}. Default: {ModeChoice.Name(ReferenceJob.Mode)}, whatever {ModeChoice.Variable} says: {ReferenceJob.ModeReason}.",
        };
        mode.AcceptOnlyFromAmong([.. ModeChoice.Names]);
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
        var command = new Command("reference", "The course's reference job: run the suite in data/reference/suite and every notebook's benchmarks on every runtime, fresh, and write the results with this machine's description.")
        {
            outFolder, name, mode, notebooks, suiteOnly, noSuite, update, onlyMissing,
        };
        command.SetAction(async (parse, cancellationToken) => await Guard(error, async () =>
        {
            // Checked before anything runs: a bad name must not cost an hour of measuring.
            var machineName = ReferenceJob.MachineName(parse.GetValue(name));
            var choice = ModeChoice.Resolve(parse.GetValue(mode), ReferenceJob.Mode, "perflab reference");
            var chosen = choice.Mode;
            error.WriteLine(choice.Line);
            if (choice.Origin != ModeChoice.OptionOrigin)
            {
                error.WriteLine($"  Not {ModeChoice.Variable}, nor {ModeChoice.Name(ModeChoice.Default)}: {ReferenceJob.ModeReason}. Give --mode to choose another.");
            }

            var repo = CourseRepository.Root();
            var paths = parse.GetValue(notebooks) is { Length: > 0 } given ? given : [Path.Combine(repo, "notebooks")];
            if (parse.GetValue(suiteOnly) && parse.GetValue(noSuite))
            {
                throw new PerfLabException("--suite-only and --no-suite exclude each other: nothing would run.", "Give one of them, or neither for the whole job.");
            }

            var updating = parse.GetValue(update) || parse.GetValue(onlyMissing);
            if (updating)
            {
                ReferenceJob.CheckUpdatable(parse.GetValue(outFolder)!, machineName, chosen);
            }

            // --only-missing: what the file has answers its calls, and only the rest is measured.
            var measured = new Dictionary<string, BenchmarkRun>(StringComparer.Ordinal);
            if (parse.GetValue(onlyMissing))
            {
                foreach (var recorded in ReferenceRuns.ReadRuns(ReferenceJob.TargetFile(parse.GetValue(outFolder)!, machineName)).Where(r => r.Code is not null))
                {
                    measured[recorded.Code!] = recorded.Run;
                }
            }

            var answered = 0;
            BenchmarkRun? Measured(string code)
            {
                var found = measured.GetValueOrDefault(code);
                answered += found is null ? 0 : 1;
                return found;
            }

            var notebookFiles = parse.GetValue(suiteOnly) ? [] : paths.SelectMany(p => NotebookCommands.Find(p).Notebooks).Distinct().ToArray();
            var runs = new List<SuiteRun>();
            if (!parse.GetValue(noSuite))
            {
                using var printer = new ProgressPrinter(error);
                runs.AddRange(await ReferenceJob.RunSuiteAsync(chosen, printer, cancellationToken, parse.GetValue(onlyMissing) ? code => Measured(code) is not null : null).ConfigureAwait(false));
                printer.Finish();
            }

            var clock = System.Diagnostics.Stopwatch.StartNew();
            foreach (var (notebook, index) in notebookFiles.Select((n, i) => (n, i)))
            {
                var relative = Path.GetRelativePath(repo, notebook).Replace('\\', '/');
                error.WriteLine($"▶ {relative} ({index + 1} of {notebookFiles.Length}, {ModeChoice.Name(chosen)} mode)");
                var found = await NotebookBenchmarks.RunAsync(notebook, relative, choice, line => error.WriteLine($"  [{clock.Elapsed.TotalSeconds,7:F1}s] {line}"), cancellationToken, parse.GetValue(onlyMissing) ? Measured : null).ConfigureAwait(false);
                runs.AddRange(found.Select(r => new SuiteRun(relative, r.Run, r.Code)));
            }

            var result = await ReferenceJob.WriteAsync(parse.GetValue(outFolder)!, machineName, chosen, runs, updating, cancellationToken, addOnly: parse.GetValue(onlyMissing)).ConfigureAwait(false);
            foreach (var run in result.Runs)
            {
                output.WriteLine();
                output.WriteLine(run.Run.Source);
                output.Write(run.Run.ToString());
            }

            output.WriteLine($"Reference results: {result.File} ({result.Runs.Count} runs, {result.Runs.Sum(r => r.Run.Results.Count)} cases)");
            if (parse.GetValue(onlyMissing))
            {
                output.WriteLine($"--only-missing: {answered} benchmark runs were in the file already and kept; {result.Runs.Count} measured and added.");
            }

            return result.HasErrors ? Failure : 0;
        }).ConfigureAwait(false));
        return command;
    }

    private static Command Fidelity(TextWriter output, TextWriter error)
    {
        var outFolder = new Option<string?>("--out", "-o") { Description = "Where fidelity.md and fidelity.json go (default: the repository's docs/).", HelpName = "DIR" };
        var command = new Command("fidelity", "Compare every published figure (data/published) with the committed reference machines (data/reference/machines): ratios, direction agreement, summary.")
        {
            outFolder,
        };
        command.SetAction(async (parse, cancellationToken) => await Guard(error, async () =>
        {
            var repo = CourseRepository.Root();
            var catalog = PublishedFigures.Load(Path.Combine(repo, "data", "published"), Path.Combine(repo, "data", "outline.json"));
            var (machines, referenceProblems) = ReferenceRuns.Load(Path.Combine(repo, "data", "reference", "machines"));
            foreach (var problem in catalog.Problems.Concat(referenceProblems))
            {
                error.WriteLine("warning: " + problem);
            }

            var rows = FidelityReport.Rows(catalog, machines);
            var folder = Path.GetFullPath(parse.GetValue(outFolder) ?? Path.Combine(repo, "docs"));
            Directory.CreateDirectory(folder);
            foreach (var (name, text) in new[] { ("fidelity.md", FidelityReport.Markdown(rows, machines)), ("fidelity.json", FidelityReport.Json(rows)) })
            {
                await AtomicFile.WriteAllTextAsync(Path.Combine(folder, name), text, cancellationToken).ConfigureAwait(false);
            }

            output.WriteLine(FidelityReport.Markdown(rows, machines).Split('\n').First(l => l.StartsWith("**Summary**", StringComparison.Ordinal)));
            output.WriteLine($"Written: {Path.Combine(folder, "fidelity.md")}, {Path.Combine(folder, "fidelity.json")}");
            return 0;
        }).ConfigureAwait(false));
        return command;
    }

    private static Option<TimeSpan?> Seconds(string name, string description) => new(name)
    {
        Description = description,
        HelpName = "SECONDS",
        CustomParser = result =>
        {
            var text = result.Tokens.Single().Value;
            if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds) && seconds > 0)
            {
                return TimeSpan.FromSeconds(seconds);
            }

            result.AddError($"{name} '{text}' is not a positive number of seconds.");
            return null;
        },
    };

    // Every expected failure ends as one message and a fix; Ctrl+C as a short note.
    internal static async Task<int> Guard(TextWriter error, Func<Task<int>> action)
    {
        try
        {
            return await action().ConfigureAwait(false);
        }
        catch (PerfLabException ex)
        {
            error.WriteLine($"error: {ex.Message}");
            foreach (var line in ex.Details)
            {
                error.WriteLine($"  {line}");
            }

            if (ex.Fix is not null)
            {
                error.WriteLine($"fix: {ex.Fix}");
            }

            return Failure;
        }
        catch (OperationCanceledException)
        {
            error.WriteLine("Cancelled. Every benchmark process was stopped.");
            return Cancelled;
        }
    }
}
