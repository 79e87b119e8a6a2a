// Stresses `perflab asm`'s capture: the classes of notebooks/jit/01-tiering-and-pgo.ipynb, their steady-state
// listings on net8.0, net9.0 and net10.0, captured --force by several engines at once, round after round. Each
// listing is checked on its own (not by the engine's checks): only labels and instructions where instructions
// belong (no header or JIT comment text spliced in), and no Tier0 or Instrumented Tier0 code returned as the
// steady state. It counts the malformed listings that reached a report, the runtimes the engine captured again,
// and the captures it refused as malformed.
//
// Usage (from the repository root): dotnet run bench/asm/stress.cs -- [--reps N] [--concurrent N] [--out FILE.md]
// --reps: rounds (default 5); --concurrent: captures at once per round (default 4). About 2 minutes with the defaults.
#:project ../Shared
// File-based programs default to Native AOT's settings, which turn reflection-based JSON off; the engine uses it.
#:property PublishAot=false
using System.Diagnostics;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using PerfLab;
using PerfLab.Disassembly;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/asm/stress.cs", 5, "--concurrent N") is not { } options)
{
    return 2;
}

var concurrent = options.Values.TryGetValue("--concurrent", out var given) ? int.Parse(given, System.Globalization.CultureInfo.InvariantCulture) : 4;
var repo = FindRepo();
const string Notebook = "notebooks/jit/01-tiering-and-pgo.ipynb";
string[] methods = ["Climb.CountEven", "PetCheck.IsDog"];
var source = ClassesOf(Path.Combine(repo, Notebook), methods.Select(m => "class " + m[..m.IndexOf('.', StringComparison.Ordinal)] + "\n").ToArray());
// The engine runs in this process and looks for the runtimes' hosts next to PerfLab.dll: the CLI's build makes them.
Log("building the CLI (and the hosts)");
BuildCli(repo, "Debug");
var hostBuild = Path.Combine(repo, "helpers", "PerfLab.Host", "bin", "Release");
var hosts = Path.Combine(Path.GetDirectoryName(typeof(AsmEngine).Assembly.Location)!, "host");
foreach (var file in Directory.EnumerateFiles(hostBuild, "*", SearchOption.AllDirectories))
{
    var target = Path.Combine(hosts, Path.GetRelativePath(hostBuild, file));
    Directory.CreateDirectory(Path.GetDirectoryName(target)!);
    File.Copy(file, target, overwrite: true);
}

var home = Directory.CreateTempSubdirectory("perflab-asm-stress-").FullName;
var instruction = new Regex(@"^(?:[A-Za-z_][\w.$]*:|[a-z][a-z0-9]*(?: .*)?)$");
var spliced = new Regex(@"Assembly listing|Total bytes|Emitting|Tier|PGO|;");

var listings = 0;
var retried = 0;
var malformed = new List<string>();
var refused = new List<string>();
var failed = new List<string>();
var clock = Stopwatch.StartNew();
for (var round = 1; round <= options.Repetitions; round++)
{
    Log($"round {round}/{options.Repetitions}: {concurrent} captures at once");
    await Task.WhenAll(Enumerable.Range(0, concurrent).Select(async _ =>
    {
        try
        {
            var request = new AsmRequest { Source = source, SourcePath = "tiering.cs", Methods = methods, Force = true };
            var report = await new AsmEngine(new PerfLabHome(home)).CaptureAsync(request, line =>
            {
                // The engine's word for a runtime it captures a second time because a listing was malformed.
                if (line.EndsWith("capturing again", StringComparison.Ordinal))
                {
                    Interlocked.Increment(ref retried);
                }
            });
            foreach (var runtime in report.Runtimes)
            {
                foreach (var listing in runtime.Listings)
                {
                    Interlocked.Increment(ref listings);
                    var bad = listing.Lines.FirstOrDefault(l => !instruction.IsMatch(l) || spliced.IsMatch(l));
                    var problem = bad is not null ? $"'{bad}' among the instructions" : listing.Tier.Contains("Tier0", StringComparison.Ordinal) ? $"{listing.Tier} returned as steady state" : null;
                    if (problem is not null)
                    {
                        lock (malformed)
                        {
                            malformed.Add($"{runtime.Runtime} {listing.Method}: {problem}");
                        }
                    }
                }
            }
        }
        catch (PerfLabException ex)
        {
            var list = ex.Message.Contains("malformed", StringComparison.Ordinal) ? refused : failed;
            lock (list)
            {
                list.Add(ex.Message);
            }
        }
    }));
}

var captures = options.Repetitions * concurrent;
var report = new StringBuilder()
    .AppendLine($"asm capture stress: {Notebook} ({string.Join(", ", methods)}), steady state, net8.0 net9.0 net10.0, {options.Repetitions} rounds of {concurrent} concurrent captures, {Environment.ProcessorCount} CPUs, {clock.Elapsed.TotalSeconds:F0} s")
    .AppendLine()
    .AppendLine("| Captures | Listings in reports | Malformed listings in reports | Runtimes captured again | Captures refused as malformed | Other failures |")
    .AppendLine("|---|---|---|---|---|---|")
    .AppendLine($"| {captures} | {listings} | {malformed.Count} | {retried} | {refused.Count} | {failed.Count} |");
foreach (var line in malformed.Concat(refused).Concat(failed).GroupBy(l => l).OrderByDescending(g => g.Count()))
{
    report.AppendLine($"- {line.Count()}x {line.Key}");
}

Console.Write(report);
if (options.OutPath is { } outPath)
{
    File.WriteAllText(outPath, report.ToString());
}

Directory.Delete(home, recursive: true);
return 0;

// The notebook's code cells that declare these classes, without their `await Lab...` lines; usings first.
static string ClassesOf(string notebook, string[] declarations)
{
    using var document = JsonDocument.Parse(File.ReadAllText(notebook));
    var lines = document.RootElement.GetProperty("cells").EnumerateArray()
        .Where(c => c.GetProperty("cell_type").GetString() == "code")
        .Select(c => string.Concat(c.GetProperty("source").EnumerateArray().Select(s => s.GetString())))
        .Where(text => declarations.Any(d => text.Contains(d, StringComparison.Ordinal)))
        .SelectMany(text => text.Split('\n'))
        .Where(l => !l.TrimStart().StartsWith("await ", StringComparison.Ordinal))
        .ToArray();
    return string.Join('\n', lines.Where(l => l.StartsWith("using ", StringComparison.Ordinal)).Distinct().Concat(lines.Where(l => !l.StartsWith("using ", StringComparison.Ordinal))));
}
