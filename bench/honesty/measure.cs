// Is quick mode honest? Runs the course's reference job (`perflab reference`: data/reference/suite and
// every benchmark the notebooks run) in quick mode, then in full mode, then in quick mode again, in one
// run on this machine, and compares every ratio (to the run's baseline runtime or baseline method) that
// full mode finds to be a real difference (below 0.8 or above 1.25): how many quick ratios land within
// +-15% of the full one. Two ways to form the quick ratio are compared: ratio of means (what the tables
// show) and ratio of medians.
//
// Usage (from the repository root):
//   dotnet run bench/honesty/measure.cs -- [--reps N] [--write-reference] [--out FILE.md]
// --reps: quick runs (default 2: one before and one after the full run, so drift hits both modes).
// --write-reference: also keep the full run as data/reference/machines/course-machine-linux-x64.json.
// Takes 1.5 to 2 hours on 2 cores (the full run is most of it).
#:project ../Shared
using System.Globalization;
using System.Text;
using System.Text.Json;
using PerfLab.Course;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/honesty/measure.cs", 2, "--write-reference") is not { } options)
{
    return 2;
}

const string MachineName = "course-machine-linux-x64";
var repo = FindRepo();
var work = Directory.CreateTempSubdirectory("perflab-honesty-").FullName;
var report = new StringBuilder();

Log("building PerfLab (Release)");
var cliDll = BuildCli(repo, "Release");

// quick, full, quick, ...: the full run sits between quick runs.
var plan = new List<string>();
for (var i = 0; i < options.Repetitions; i++)
{
    plan.Add("quick");
    if (i == 0)
    {
        plan.Add("full");
    }
}

var quick = new List<Dictionary<string, (double Mean, double Median)>>();
Dictionary<string, (double Mean, double Median)>? full = null;
string? fullFile = null;
var wall = new Dictionary<string, List<double>>();
foreach (var (mode, index) in plan.Select((m, i) => (m, i)))
{
    Log($"{mode} reference run ({index + 1} of {plan.Count})");
    var folder = Path.Combine(work, $"{index}-{mode}");
    var run = Run("dotnet", [cliDll, "reference", "--out", folder, "--name", MachineName, "--mode", mode], repo, null, mustSucceed: true, timeout: TimeSpan.FromHours(3));
    (wall.TryGetValue(mode, out var list) ? list : wall[mode] = []).Add(run.Seconds);
    var file = Path.Combine(folder, MachineName + ".json");
    var ratios = Ratios(file);
    Log($"{mode}: {ratios.Count} ratios in {run.Seconds:F0} s");
    if (mode == "full")
    {
        full = ratios;
        fullFile = file;
    }
    else
    {
        quick.Add(ratios);
    }
}

var fullRatios = full ?? throw new InvalidOperationException("no full run");
var real = fullRatios.Where(f => f.Value.Mean < 0.8 || f.Value.Mean > 1.25).Select(f => f.Key).Order(StringComparer.Ordinal).ToArray();
report.AppendLine(CultureInfo.InvariantCulture, $"Reference job (data/reference/suite + notebooks), {Environment.ProcessorCount} cores, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC: full run {wall["full"][0] / 60:F0} min; quick runs {string.Join(", ", wall["quick"].Select(s => (s / 60).ToString("F1", CultureInfo.InvariantCulture)))} min.");
report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"{fullRatios.Count} ratios (each case against its run's baseline runtime or baseline method); {real.Length} are a real difference in full mode (below 0.8 or above 1.25). Quick runs: {quick.Count}.");
report.AppendLine();
report.AppendLine("| Case (notebook or suite, class.method, runtime) | Full ratio | Quick ratio of means (each run) | Quick ratio of medians (each run) |");
report.AppendLine("|---|---:|---|---|");
var withinMeans = 0;
var withinMedians = 0;
var comparisons = 0;
foreach (var key in real)
{
    var fullRatio = fullRatios[key].Mean;
    var means = quick.Select(q => q.TryGetValue(key, out var r) ? r.Mean : double.NaN).ToArray();
    var medians = quick.Select(q => q.TryGetValue(key, out var r) ? r.Median : double.NaN).ToArray();
    foreach (var (mean, median) in means.Zip(medians))
    {
        comparisons++;
        withinMeans += Within(mean, fullRatio) ? 1 : 0;
        withinMedians += Within(median, fullRatios[key].Median) ? 1 : 0;
    }

    report.AppendLine(CultureInfo.InvariantCulture, $"| {key} | {fullRatio:F2} | {Cells(means, fullRatio)} | {Cells(medians, fullRatios[key].Median)} |");
}

report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"Within +-15% of the full ratio: ratio of means {withinMeans} of {comparisons} ({Share(withinMeans, comparisons)}); ratio of medians {withinMedians} of {comparisons} ({Share(withinMedians, comparisons)}). Target: 90%.");

if (options.Flags.Contains("--write-reference"))
{
    var target = CourseRepository.PathOf($"{CourseRepository.ReferenceMachinesFolder}/{MachineName}.json", repo);
    File.Copy(fullFile!, target, overwrite: true);
    Log($"kept the full run as {target}");
}

Console.WriteLine();
Console.WriteLine(report);
if (options.OutPath is not null)
{
    File.WriteAllText(options.OutPath, report.ToString());
}

Directory.Delete(work, recursive: true);
return 0;

static bool Within(double quick, double full) => double.IsFinite(quick) && Math.Abs(quick - full) <= 0.15 * full;

static string Share(int part, int whole) => whole == 0 ? "-" : (part / (double)whole).ToString("P0", CultureInfo.InvariantCulture);

static string Cells(double[] values, double full) =>
    string.Join(", ", values.Select(v => double.IsFinite(v) ? $"{v.ToString("F2", CultureInfo.InvariantCulture)}{(Within(v, full) ? "" : " ✗")}" : "missing"));

// Every case's ratio to its baseline, keyed by where it lives, the case and the runtime. Ratio of means
// is the table's own ratio; ratio of medians is formed here from the same rows' medians.
static Dictionary<string, (double Mean, double Median)> Ratios(string file)
{
    using var document = JsonDocument.Parse(File.ReadAllText(file));
    var ratios = new Dictionary<string, (double, double)>(StringComparer.Ordinal);
    foreach (var suiteRun in document.RootElement.GetProperty("runs").EnumerateArray())
    {
        var run = suiteRun.GetProperty("run");
        var baseline = run.GetProperty("baseline").GetString()!;
        var rows = run.GetProperty("results").EnumerateArray()
            .Where(r => r.GetProperty("error").ValueKind == JsonValueKind.Null && r.GetProperty("ratio").ValueKind == JsonValueKind.Number)
            .Select(r => (
                Type: r.GetProperty("type").GetString()!,
                Method: r.GetProperty("method").GetString()!,
                Parameters: string.Join(",", r.GetProperty("parameters").EnumerateArray().Select(p => p.ToString())),
                Runtime: r.GetProperty("runtime").GetString()!,
                IsBaseline: r.GetProperty("isBaseline").GetBoolean(),
                Ratio: r.GetProperty("ratio").GetDouble(),
                Median: r.GetProperty("statistics").GetProperty("median").GetDouble()))
            .ToArray();
        foreach (var row in rows)
        {
            var reference = baseline.StartsWith("runtime:", StringComparison.Ordinal)
                ? rows.FirstOrDefault(r => r.Type == row.Type && r.Method == row.Method && r.Parameters == row.Parameters && r.Runtime == baseline["runtime:".Length..])
                : rows.FirstOrDefault(r => r.Type == row.Type && r.IsBaseline && r.Parameters == row.Parameters && r.Runtime == row.Runtime);
            if (reference.Type is null || reference == row || reference.Median <= 0)
            {
                continue;
            }

            var source = suiteRun.GetProperty("suite").GetString()!;
            var key = $"{Path.GetFileNameWithoutExtension(source)}: {row.Type}.{row.Method}({row.Parameters}) {row.Runtime}";
            ratios[key] = (row.Ratio, row.Median / reference.Median);
        }
    }

    return ratios;
}
