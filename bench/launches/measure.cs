// Compares quick mode's launches between two builds of the repository, in one run, alternating: this one and
// another worktree (e.g. main before a change). Each repetition runs `perflab bench --mode quick --force` of one
// benchmark file with each build, the builds' order swapped every repetition so drift falls on both. It reports,
// per build: the wall time, the launches each case ran, how far a case's launch means spread (slowest / fastest),
// the half-width of each ratio's interval, and each case's median mean. With --trace, every host also writes a
// JIT trace (PERFLAB_JIT_TRACE: each method compiled, its tier and when, beside the host's stages) to the work
// folder, per build and repetition, for reading a slow launch against a fast one.
//
// Usage (from the repository root):
//   dotnet run bench/launches/measure.cs -- --other ../main [--file bench/launches/LibraryCalls.cs] [--reps N] [--trace] [--out FILE.md]
#:project ../Shared
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/launches/measure.cs", 3, "--other WORKTREE", "--file BENCH.cs", "--trace") is not { } options
    || OtherCheckout(options, "bench/launches/measure.cs") is not { } otherRepo)
{
    return 2;
}

var repo = FindRepo();
var file = Path.GetFullPath(options.Values.GetValueOrDefault("--file") ?? Path.Combine(repo, "bench", "launches", "LibraryCalls.cs"));
var reps = options.Repetitions;
var trace = options.Flags.Contains("--trace");
var outPath = options.OutPath;
var work = Directory.CreateTempSubdirectory("perflab-launches-").FullName;

Log("building both CLIs (Release)");
var builds = new[] { ("this", BuildCli(repo, "Release")), ("other", BuildCli(otherRepo, "Release")) };
Run("dotnet", [builds[0].Item2, "runtimes", "--provision"]);

var runs = builds.ToDictionary(b => b.Item1, _ => new List<(double Seconds, JsonElement[] Rows)>());
for (var rep = 1; rep <= reps; rep++)
{
    foreach (var (name, cli) in rep % 2 == 1 ? builds : builds.Reverse())
    {
        var json = Path.Combine(work, $"{name}-{rep}.json");
        string[] arguments = [cli, "bench", file, "--mode", "quick", "--runtimes", "net9.0", "net10.0", "--force", "--json", json];
        if (trace)
        {
            arguments = [.. arguments, "--env", $"PERFLAB_JIT_TRACE={Path.Combine(work, $"trace-{name}-{rep}")}"];
        }

        Log($"repetition {rep}/{reps}: {name} (load average {LoadAverage()})");
        var clock = Stopwatch.StartNew();
        Run("dotnet", arguments);
        using var document = JsonDocument.Parse(File.ReadAllText(json));
        runs[name].Add((clock.Elapsed.TotalSeconds, document.RootElement.GetProperty("results").EnumerateArray().Select(r => r.Clone()).ToArray()));
    }
}

static string Key(JsonElement row) => $"{row.GetProperty("method").GetString()} {row.GetProperty("runtime").GetString()}";
static double[] Means(JsonElement row) => row.GetProperty("launchMeansNs").EnumerateArray().Select(m => m.GetDouble()).ToArray();
static double? HalfWidth(JsonElement row) =>
    row.TryGetProperty("ratioInterval", out var interval) && interval.ValueKind == JsonValueKind.Object
        ? (interval.GetProperty("high").GetDouble() - interval.GetProperty("low").GetDouble()) / 2 / row.GetProperty("ratio").GetDouble()
        : null;

var report = new StringBuilder();
report.AppendLine(CultureInfo.InvariantCulture, $"### Launches compared (bench/launches/measure.cs, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, {reps} repetitions of {Path.GetFileName(file)} on .NET 9 and 10)");
report.AppendLine();
report.AppendLine("| Build | Wall time per run (s) | Launches per case, mean | Slowest / fastest launch mean, median (max) | Ratio interval half-width, median |");
report.AppendLine("|---|---:|---:|---:|---:|");
foreach (var (name, list) in runs)
{
    var rows = list.SelectMany(r => r.Rows).Where(r => !r.TryGetProperty("error", out var error) || error.ValueKind == JsonValueKind.Null).ToArray();
    var spreads = rows.Select(Means).Where(m => m.Length > 1).Select(m => m.Max() / m.Min()).ToArray();
    var halves = rows.Select(HalfWidth).OfType<double>().ToArray();
    report.AppendLine(CultureInfo.InvariantCulture,
        $"| {name} | {string.Join(" / ", list.Select(r => r.Seconds.ToString("F0", CultureInfo.InvariantCulture)))} | {rows.Average(r => Means(r).Length):F2} | {Median(spreads):F2} ({spreads.Max():F2}) | {Median(halves):P0} |");
}

report.AppendLine();
report.AppendLine("Median of each case's means (ns), runs of this build / of the other:");
report.AppendLine();
report.AppendLine("| Case | this | other |");
report.AppendLine("|---|---:|---:|");
foreach (var key in runs["this"].SelectMany(r => r.Rows).Select(Key).Distinct())
{
    string MedianOf(string build) => Median(runs[build].SelectMany(r => r.Rows).Where(r => Key(r) == key).Select(r => Median(Means(r)))).ToString("F2", CultureInfo.InvariantCulture);
    report.AppendLine(CultureInfo.InvariantCulture, $"| {key} | {MedianOf("this")} | {MedianOf("other")} |");
}

report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"Work folder (JSON{(trace ? ", JIT traces" : "")}): {work}");
Console.WriteLine(report);
if (outPath is not null)
{
    File.WriteAllText(outPath, report.ToString());
}

return 0;
