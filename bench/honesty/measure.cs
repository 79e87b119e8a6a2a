// Is quick mode honest? Runs the course's reference job (`perflab reference`: data/reference/suite and
// every benchmark the notebooks run) in quick mode and in full mode, alternately in one run on this machine
// (quick, full, quick, full: drift over the run hits both modes), and compares every ratio a table shows (to
// the run's baseline runtime or baseline method):
// - for the ratios full mode finds to be a real difference (below 0.8 or above 1.25): how many quick ratios land
//   within +-15% of the full one, as a ratio of means (what the tables show) and of medians;
// - for every ratio: how often quick's 95% interval (across its launches) holds the first full run's ratio, and
//   how wide the intervals are (median half-width as a share of the ratio);
// - full against full: how often the first full run's interval (from its iterations, one process per case)
//   holds the second full run's ratio: the calibration of the intervals the reference file's rows carry;
// - the same for the fastest iterations' ratio (the Fastest ratio column, RatioInterval.Fastest): how often it lands
//   within +-15% of full mode's, and how often its quick interval holds full mode's (all quick runs together too).
//
// Usage (from the repository root):
//   dotnet run bench/honesty/measure.cs -- [--reps N] [--one-full | --against-reference | --against FILE] [--sample] [--write-reference] [--try] [--out FILE.md]
//   dotnet run bench/honesty/measure.cs -- --file BENCH.cs --against FULL.json [--reps N] [--out FILE.md]
// --reps: quick runs (default 2).
// --one-full: one full run instead of two (no full-against-full comparison; saves the longest part).
// --against-reference: no full run at all: the quick runs are compared with the committed reference file
//   (data/reference/machines/course-machine-linux-x64.json, full mode, measured on this machine earlier), which is
//   what a reader compares a quick run with. Takes as long as the quick runs (about an hour with launches).
// --against FILE: like --against-reference, against FILE: a full-mode results file, such as one
//   `perflab reference --mode full --launches 3` wrote (each ratio the mean over several processes, the target quick mode's
//   interval is for). The quick runs measure what FILE holds (its suite file and notebooks); full against full then
//   sets FILE against the committed reference file, both ways.
// --sample: the suite and four notebooks only (00, jit/02, jit/03, collections/01: 80-odd ratios, a mix of nanosecond
//   and microsecond cases, real differences and none): a calibration in about 20 minutes instead of the whole course.
// --write-reference: also keep the first full run as data/reference/machines/course-machine-linux-x64.json.
// --file BENCH.cs --against FULL.json: a benchmark file outside the reference job (bench/launches/LibraryCalls.cs: library-heavy
//   cases), against its full run with several processes per case (`perflab bench BENCH.cs --mode full --launches 3
//   --runtimes ... --json FULL.json`): each quick run is `perflab bench BENCH.cs --mode quick --force` on FULL's runtimes.
// --runtime-ratios: every row against the same case on the run's first runtime, whatever the file's baseline: the ratios
//   between runtimes of a file whose table compares methods (LibraryCalls.cs against ParseStamp), computed by the library
//   from each run's rows as a table would (RatioInterval.Between, its intervals in rounds included).
// --from-report EARLIER.md: no quick run; the quick runs kept beside an earlier report (EARLIER.N-quick.json, from --out)
//   are read instead, e.g. to ask --runtime-ratios of runs an older build made (intervals as this build computes them
//   from those rows: rows without launchRounds get the independent interval, as that build gave them).
// --try: proves this script's code paths in about two minutes: each run is `perflab bench` of one suite case
//   (RuntimeDifferences.PlainLoop, 3 runtimes) in quick mode, which also stands in for full mode. Its numbers
//   say nothing about quick mode's honesty.
// --out also keeps each run's results file beside the report (FILE.0-quick.json, ...).
// Takes 3 to 4 hours on 2 cores with two full runs (each full run is most of 2 hours).
#:project ../Shared
// The results are read as the library reads them (ResultJsonReader), which serializes by reflection; file-based
// programs turn that off by default.
#:property JsonSerializerIsReflectionEnabledByDefault=true
using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using PerfLab.Bench;
using PerfLab.Course;
using PerfLab.Results;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/honesty/measure.cs", 2, "--write-reference", "--one-full", "--against-reference", "--against FILE", "--file BENCH.cs", "--sample", "--try", "--runtime-ratios", "--from-report EARLIER.md") is not { } options)
{
    return 2;
}

const string MachineName = "course-machine-linux-x64";
const string TrySuite = "data/reference/suite/RuntimeDifferences.cs";
const string TryFilter = "*PlainLoop*";
var tryOnly = options.Flags.Contains("--try");
if (tryOnly && options.Flags.Contains("--write-reference"))
{
    Console.Error.WriteLine("--try measures nothing worth keeping: it cannot be combined with --write-reference.");
    return 2;
}

var againstFile = options.Values.GetValueOrDefault("--against") is { } givenFile ? Path.GetFullPath(givenFile) : null;
if (againstFile is not null && (options.Flags.Overlaps(["--against-reference", "--write-reference", "--one-full", "--sample"]) || tryOnly))
{
    Console.Error.WriteLine("--against FILE runs no full run and measures what FILE holds: it cannot be combined with --against-reference, --write-reference, --one-full, --sample or --try.");
    return 2;
}

if (againstFile is not null && !File.Exists(againstFile))
{
    Console.Error.WriteLine($"--against: {againstFile} does not exist. Give a results file `perflab reference` wrote (OUT/NAME.json), or with --file one `perflab bench --json` wrote.");
    return 2;
}

var benchFile = options.Values.GetValueOrDefault("--file") is { } givenBench ? Path.GetFullPath(givenBench) : null;
if (benchFile is not null && (againstFile is null || !File.Exists(benchFile)))
{
    Console.Error.WriteLine(againstFile is null
        ? "--file BENCH.cs needs --against FULL.json: the same file's full run, `perflab bench BENCH.cs --mode full --launches 3 --json FULL.json`."
        : $"--file: {benchFile} does not exist.");
    return 2;
}

var againstReference = options.Flags.Contains("--against-reference") || againstFile is not null;
var runtimeRatios = options.Flags.Contains("--runtime-ratios");
string[] earlierRuns = [];
if (options.Values.GetValueOrDefault("--from-report") is { } earlier)
{
    var earlierPath = Path.GetFullPath(earlier);
    earlierRuns = Directory.Exists(Path.GetDirectoryName(earlierPath))
        ? [.. Directory.GetFiles(Path.GetDirectoryName(earlierPath)!, Path.GetFileNameWithoutExtension(earlierPath) + ".*-quick.json").Order(StringComparer.Ordinal)]
        : [];
    if (earlierRuns.Length == 0 || againstFile is null)
    {
        Console.Error.WriteLine(againstFile is null
            ? "--from-report reads earlier quick runs and runs no full run: give the full run they are compared with as --against FULL.json."
            : $"--from-report: no quick runs kept beside {earlierPath} ({Path.GetFileNameWithoutExtension(earlierPath)}.N-quick.json, written by --out).");
        return 2;
    }
}

string[] sample = benchFile is not null ? []
    : againstFile is not null
    ? ScopeOf(againstFile)
    : options.Flags.Contains("--sample")
    ? ["--notebooks", "notebooks/00-start-here.ipynb", "notebooks/jit/02-stack-allocation.ipynb", "notebooks/jit/03-devirtualization.ipynb", "notebooks/collections/01-enumeration.ipynb"]
    : [];
if (sample.Length > 0 && options.Flags.Contains("--write-reference"))
{
    Console.Error.WriteLine("--sample measures part of the course: it cannot be combined with --write-reference.");
    return 2;
}

if (againstReference && (options.Flags.Contains("--write-reference") || options.Flags.Contains("--one-full")))
{
    Console.Error.WriteLine("--against-reference runs no full run: it cannot be combined with --write-reference or --one-full.");
    return 2;
}

var repo = FindRepo();
var work = Directory.CreateTempSubdirectory("perflab-honesty-").FullName;
var report = new StringBuilder();

Log("building PerfLab (Release)");
var cliDll = BuildCli(repo, "Release");

// quick, full, quick, full, ...: each full run sits between quick runs.
var fullRuns = againstReference ? 0 : options.Flags.Contains("--one-full") ? 1 : 2;
var quickRuns = earlierRuns.Length > 0 ? 0 : options.Repetitions;
var plan = new List<string>();
for (var i = 0; i < Math.Max(quickRuns, fullRuns); i++)
{
    if (i < quickRuns)
    {
        plan.Add("quick");
    }

    if (i < fullRuns)
    {
        plan.Add("full");
    }
}

var quick = new List<Dictionary<string, Measured>>();
var full = new List<Dictionary<string, Measured>>();
string? fullFile = null;
var wall = new Dictionary<string, List<double>>();
foreach (var (mode, index) in plan.Select((m, i) => (m, i)))
{
    Log($"{mode} reference run ({index + 1} of {plan.Count}){(tryOnly ? ", --try: quick mode on one case" : "")}");
    var folder = Path.Combine(work, $"{index}-{mode}");
    var file = Path.Combine(folder, MachineName + ".json");
    var run = tryOnly ? BenchRun(folder, file, TrySuite, ["--filter", TryFilter])
        : benchFile is not null ? BenchRun(folder, file, benchFile, ["--runtimes", .. RuntimesOf(againstFile!)])
        : Run("dotnet", [cliDll, "reference", "--out", folder, "--name", MachineName, "--mode", mode, .. sample], repo, null, mustSucceed: true, timeout: TimeSpan.FromHours(3));
    (wall.TryGetValue(mode, out var list) ? list : wall[mode] = []).Add(run.Seconds);
    var ratios = Ratios(file, runtimeRatios);
    Log($"{mode}: {ratios.Count} ratios in {run.Seconds:F0} s");
    if (mode == "full")
    {
        full.Add(ratios);
        fullFile ??= file;
    }
    else
    {
        quick.Add(ratios);
    }
}

foreach (var earlierRun in earlierRuns)
{
    quick.Add(Ratios(earlierRun, runtimeRatios));
    Log($"read {Path.GetFileName(earlierRun)}: {quick[^1].Count} ratios");
}

var committedFile = CourseRepository.PathOf($"{CourseRepository.ReferenceMachinesFolder}/{MachineName}.json", repo);
if (againstReference)
{
    full.Add(Ratios(benchFile is not null ? AsReferenceShape(againstFile!, benchFile, Path.Combine(work, "against.json")) : againstFile ?? committedFile, runtimeRatios));
}

var fullName = againstFile is not null ? Path.GetFileName(againstFile) : againstReference ? "the committed reference file" : "full run 1";
var fullRatios = full[0];
// Cases no quick run measured (outside --sample) are left out, not counted as misses.
var real = fullRatios.Where(f => (f.Value.Mean < 0.8 || f.Value.Mean > 1.25) && quick.Any(q => q.ContainsKey(f.Key))).Select(f => f.Key).Order(StringComparer.Ordinal).ToArray();
string Minutes(string mode) => wall.TryGetValue(mode, out var seconds) ? string.Join(", ", seconds.Select(s => (s / 60).ToString("F1", CultureInfo.InvariantCulture))) : "none";
report.AppendLine(CultureInfo.InvariantCulture, $"{(benchFile is not null ? "Benchmark file" : "Reference job")} ({(benchFile is not null ? Path.GetRelativePath(repo, benchFile) : tryOnly ? $"--try: {TrySuite} {TryFilter} only, quick mode standing in for full; the numbers say nothing" : sample.Length > 0 ? string.Join(" + ", sample.Contains("--no-suite") ? sample.Where(a => !a.StartsWith("--", StringComparison.Ordinal)) : ["data/reference/suite", .. sample.Where(a => !a.StartsWith("--", StringComparison.Ordinal))]) : "data/reference/suite + notebooks")}), {Environment.ProcessorCount} cores, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC: full runs {Minutes("full")} min; quick runs {Minutes("quick")} min.");
report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"{fullRatios.Count} ratios ({(runtimeRatios ? "--runtime-ratios: each case against the same case on its run's first runtime" : "each case against its run's baseline runtime or baseline method")}); {real.Length} are a real difference in full mode (below 0.8 or above 1.25). Quick runs: {quick.Count}; {(againstReference ? $"full: {fullName}" : $"full runs: {full.Count}")}.");
report.AppendLine();
report.AppendLine("| Case (notebook or suite, class.method, runtime) | Full ratio | Quick ratio of means (each run) | Quick ratio of medians (each run) | Quick 95% interval (each run; ✓ holds the full ratio) |");
report.AppendLine("|---|---:|---|---|---|");
var withinMeans = 0;
var withinMedians = 0;
var comparisons = 0;
foreach (var key in real)
{
    var fullRatio = fullRatios[key].Mean;
    var runs = quick.Select(q => q.GetValueOrDefault(key)).ToArray();
    foreach (var measured in runs)
    {
        comparisons++;
        withinMeans += Within(measured?.Mean ?? double.NaN, fullRatio) ? 1 : 0;
        withinMedians += Within(measured?.Median ?? double.NaN, fullRatios[key].Median) ? 1 : 0;
    }

    report.AppendLine(CultureInfo.InvariantCulture, $"| {key} | {fullRatio:F2} | {Cells(runs.Select(r => r?.Mean ?? double.NaN), fullRatio)} | {Cells(runs.Select(r => r?.Median ?? double.NaN), fullRatios[key].Median)} | {string.Join(", ", runs.Select(r => IntervalCell(r, fullRatio)))} |");
}

report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"Within +-15% of the full ratio: ratio of means {withinMeans} of {comparisons} ({Share(withinMeans, comparisons)}); ratio of medians {withinMedians} of {comparisons} ({Share(withinMedians, comparisons)}). Target: 90%.");
report.AppendLine();

// Coverage over every ratio both sides have: does the interval of one run hold the other run's ratio?
report.AppendLine("| Interval | Of | Holds the ratio of | Held | Median half-width (% of the ratio) | Without an interval |");
report.AppendLine("|---|---|---|---:|---:|---:|");
foreach (var (quickRun, index) in quick.Select((q, i) => (q, i)))
{
    report.AppendLine(Coverage($"quick run {index + 1}", quickRun, fullName, fullRatios));
}

if (full.Count > 1)
{
    report.AppendLine(Coverage("full run 1", full[0], "full run 2", full[1]));
}
else if (againstFile is not null && benchFile is null)
{
    // Two full runs measured on different days: FILE (several processes per case, if it was run so) and the committed
    // file (one; written before rows carried intervals, so only FILE's intervals are set against the other's ratios).
    var committed = Ratios(committedFile, runtimeRatios);
    report.AppendLine(Coverage(fullName, fullRatios, "the committed reference file", committed));
    var shared = fullRatios.Keys.Where(committed.ContainsKey).ToArray();
    var apart = shared.Select(k => Math.Abs(Math.Log(committed[k].Mean / fullRatios[k].Mean))).Order().ToArray();
    report.AppendLine();
    report.AppendLine(CultureInfo.InvariantCulture, $"Full against full: the committed file's ratio within +-15% of {fullName}'s in {shared.Count(k => Within(committed[k].Mean, fullRatios[k].Mean))} of {shared.Length}; |ln(committed / {fullName})| median {Median(apart):F3}, largest {(apart.Length > 0 ? apart[^1] : double.NaN):F3}.");
}
else
{
    report.AppendLine(CultureInfo.InvariantCulture, $"| full against full | | | not measured ({(againstReference ? "--against-reference" : "--one-full")}) | | |");
}

// The same questions of the fastest iterations' ratio (RatioInterval.Fastest), against full mode's own.
var fastestFull = FastestOf(fullRatios);
var fastestWithin = real.Sum(key => fastestFull.TryGetValue(key, out var f) ? quick.Count(q => q.TryGetValue(key, out var m) && m.AsFastest() is { } qf && Within(qf.Mean, f.Mean)) : 0);
report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"By the fastest iterations (the Fastest ratio column): within +-15% of full mode's fastest ratio {fastestWithin} of {comparisons} ({Share(fastestWithin, comparisons)}).");
report.AppendLine();
report.AppendLine("| Fastest ratio's interval | Of | Holds the fastest ratio of | Held | Median half-width (% of the ratio) | Without an interval |");
report.AppendLine("|---|---|---|---:|---:|---:|");
foreach (var (quickRun, index) in quick.Select((q, i) => (q, i)))
{
    report.AppendLine(Coverage($"quick run {index + 1}", FastestOf(quickRun), fullName, fastestFull));
}

var allQuick = quick.SelectMany((q, i) => FastestOf(q).Select(m => (Key: $"{i}|{m.Key}", m.Value))).ToDictionary(m => m.Key, m => m.Value, StringComparer.Ordinal);
var allFull = quick.SelectMany((q, i) => fastestFull.Select(m => (Key: $"{i}|{m.Key}", m.Value))).ToDictionary(m => m.Key, m => m.Value, StringComparer.Ordinal);
report.AppendLine(Coverage("every quick run", allQuick, fullName, allFull));
if (full.Count > 1)
{
    report.AppendLine(Coverage("full run 1", FastestOf(full[0]), "full run 2", FastestOf(full[1])));
}
else if (againstFile is not null && benchFile is null)
{
    var committed = FastestOf(Ratios(committedFile, runtimeRatios));
    var shared = fastestFull.Keys.Where(committed.ContainsKey).ToArray();
    var apart = shared.Select(k => Math.Abs(Math.Log(committed[k].Mean / fastestFull[k].Mean))).Order().ToArray();
    report.AppendLine();
    report.AppendLine(CultureInfo.InvariantCulture, $"Full against full by the fastest iterations: the committed file's within +-15% of {fullName}'s in {shared.Count(k => Within(committed[k].Mean, fastestFull[k].Mean))} of {shared.Length}; |ln(committed / {fullName})| median {Median(apart):F3}, largest {(apart.Length > 0 ? apart[^1] : double.NaN):F3}.");
}

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
    // The runs themselves beside the report, for questions the report does not answer.
    foreach (var (mode, index) in plan.Select((m, i) => (m, i)))
    {
        File.Copy(Path.Combine(work, $"{index}-{mode}", MachineName + ".json"), Path.ChangeExtension(options.OutPath, $".{index}-{mode}.json"), overwrite: true);
    }
}

Directory.Delete(work, recursive: true);
return 0;

// A run's fastest ratios, as the coverage table reads ratios.
static Dictionary<string, Measured> FastestOf(Dictionary<string, Measured> ratios) =>
    ratios.Where(r => r.Value.AsFastest() is not null).ToDictionary(r => r.Key, r => r.Value.AsFastest()!, StringComparer.Ordinal);

static bool Within(double quick, double full) => double.IsFinite(quick) && Math.Abs(quick - full) <= 0.15 * full;

static string Share(int part, int whole) => whole == 0 ? "-" : (part / (double)whole).ToString("P0", CultureInfo.InvariantCulture);

static string Cells(IEnumerable<double> values, double full) =>
    string.Join(", ", values.Select(v => double.IsFinite(v) ? $"{v.ToString("F2", CultureInfo.InvariantCulture)}{(Within(v, full) ? "" : " ✗")}" : "missing"));

static string IntervalCell(Measured? measured, double full) => measured switch
{
    null => "missing",
    { Low: { } low, High: { } high } => string.Create(CultureInfo.InvariantCulture, $"{low:F2}–{high:F2} {(Holds(measured, full) ? "✓" : "✗")}"),
    _ => "none",
};

static bool Holds(Measured interval, double ratio) => interval.Low <= ratio && ratio <= interval.High;

// One line of the coverage table: how often the intervals of `of` hold the ratios of `against`, and how wide they are.
static string Coverage(string ofName, Dictionary<string, Measured> of, string againstName, Dictionary<string, Measured> against)
{
    var pairs = of.Where(o => against.ContainsKey(o.Key)).Select(o => (Interval: o.Value, Ratio: against[o.Key].Mean)).ToArray();
    var withInterval = pairs.Where(p => p.Interval.Low is not null).ToArray();
    var held = withInterval.Count(p => Holds(p.Interval, p.Ratio));
    var halfWidth = Median(withInterval.Select(p => (p.Interval.High!.Value - p.Interval.Low!.Value) / 2 / p.Interval.Mean * 100));
    var kinds = string.Join(", ", withInterval.Select(p => p.Interval.Kind).Distinct());
    return string.Create(CultureInfo.InvariantCulture, $"| {ofName} ({kinds}) | {withInterval.Length} ratios | {againstName} | {held} of {withInterval.Length} ({Share(held, withInterval.Length)}) | {halfWidth:F1} | {pairs.Length - withInterval.Length} |");
}

// The `perflab reference` arguments that measure what a results file holds: its notebooks, and the suite if it has it.
static string[] ScopeOf(string file)
{
    using var document = JsonDocument.Parse(File.ReadAllText(file));
    var sources = document.RootElement.GetProperty("runs").EnumerateArray().Select(r => r.GetProperty("suite").GetString()!).Distinct().ToArray();
    var notebooks = sources.Where(s => s.StartsWith("notebooks/", StringComparison.Ordinal)).ToArray();
    var suite = sources.Any(s => s.StartsWith("data/reference/suite/", StringComparison.Ordinal));
    return [.. notebooks.Length > 0 ? ["--notebooks", .. notebooks] : Array.Empty<string>(), .. suite ? Array.Empty<string>() : ["--no-suite"], .. notebooks.Length == 0 ? ["--suite-only"] : Array.Empty<string>()];
}

// A quick `perflab bench` run of one file (--try: one suite case; --file: the file given), written in the reference
// file's shape for the same reader.
RunResult BenchRun(string folder, string file, string source, string[] arguments)
{
    Directory.CreateDirectory(folder);
    var json = Path.Combine(folder, "bench.json");
    var run = Run("dotnet", [cliDll, "bench", source, .. arguments, "--mode", "quick", "--force", "--json", json], repo, null, mustSucceed: true);
    AsReferenceShape(json, source, file);
    return run;
}

// A `perflab bench --json` file as a reference file of one run, under the name of its source.
static string AsReferenceShape(string benchJson, string source, string file)
{
    var document = new JsonObject { ["runs"] = new JsonArray(new JsonObject { ["suite"] = source, ["run"] = JsonNode.Parse(File.ReadAllText(benchJson)) }) };
    File.WriteAllText(file, document.ToJsonString());
    return file;
}

// The runtimes a `perflab bench --json` file ran, in its order (the first is the runtime baseline).
static string[] RuntimesOf(string benchJson)
{
    using var document = JsonDocument.Parse(File.ReadAllText(benchJson));
    return [.. document.RootElement.GetProperty("runtimes").EnumerateArray().Select(r => r.GetProperty("moniker").GetString()!)];
}

// Every case's ratio to its baseline, keyed by where it lives, the case and the runtime: ratio of means (the
// table's own) with its 95% interval, ratio of medians (formed here from the same rows' medians), and the fastest
// iterations' ratio with its interval. Read as the library reads results, so a file written before a field existed
// gets it from what it kept (a full file without each launch's fastest iteration: each side's fastest overall).
// With runtimeRatios, every row against the same case on the run's first runtime, its ratio and intervals computed as a
// table would compute them (RatioInterval), whatever the file's own baseline.
static Dictionary<string, Measured> Ratios(string file, bool runtimeRatios)
{
    using var document = JsonDocument.Parse(File.ReadAllText(file));
    var ratios = new Dictionary<string, Measured>(StringComparer.Ordinal);
    foreach (var suiteRun in document.RootElement.GetProperty("runs").EnumerateArray())
    {
        var run = ResultJsonReader.Read(suiteRun.GetProperty("run").GetRawText());
        // A notebook runs some classes again under environment variables (e.g. DOTNET_TieredCompilation=0): part of the key.
        var environment = string.Concat(run.Environment.OrderBy(v => v.Key, StringComparer.Ordinal).Select(v => $" {v.Key}={v.Value}"));
        var rows = run.Results.Where(r => r.Error is null && (r.Ratio is not null || runtimeRatios) && r.Statistics is not null).ToArray();
        static string Parameters(BenchmarkResult r) => string.Join(",", r.Parameters.Select(p => $"{p.Name}={p.Value}"));
        var firstRuntime = runtimeRatios ? run.Runtimes[0].Moniker : run.Baseline.StartsWith("runtime:", StringComparison.Ordinal) ? run.Baseline["runtime:".Length..] : null;
        foreach (var table in rows)
        {
            var reference = firstRuntime is not null
                ? rows.FirstOrDefault(r => r.Type == table.Type && r.Method == table.Method && Parameters(r) == Parameters(table) && r.Runtime == firstRuntime)
                : rows.FirstOrDefault(r => r.Type == table.Type && r.IsBaseline && Parameters(r) == Parameters(table) && r.Runtime == table.Runtime);
            if (reference is null || ReferenceEquals(reference, table) || reference.Statistics!.Median <= 0)
            {
                continue;
            }

            var row = !runtimeRatios ? table : table with
            {
                Ratio = table.Statistics!.Mean / reference.Statistics.Mean,
                RatioInterval = RatioInterval.Between(table, reference, run.Mode, run.Results),
                FastestRatio = RatioInterval.Fastest(table, reference, run.Mode)?.Ratio,
                FastestRatioInterval = RatioInterval.Fastest(table, reference, run.Mode)?.Interval,
            };

            var source = suiteRun.GetProperty("suite").GetString()!;
            var key = $"{Path.GetFileNameWithoutExtension(source)}: {row.Type}.{row.Method}({Parameters(row)}) {row.Runtime}{environment}";
            ratios[key] = new Measured(
                row.Ratio!.Value,
                row.Statistics!.Median / reference.Statistics.Median,
                row.RatioInterval?.Low,
                row.RatioInterval?.High,
                row.RatioInterval?.Kind.ToString().ToLowerInvariant(),
                row.FastestRatio,
                row.FastestRatioInterval?.Low,
                row.FastestRatioInterval?.High);
        }
    }

    return ratios;
}

/// <summary>One ratio of a run: of means, of medians, and its 95% interval (low, high, kind), if it has one; the fastest
/// iterations' ratio and its interval, if it has them.</summary>
internal sealed record Measured(double Mean, double Median, double? Low, double? High, string? Kind, double? Fastest, double? FastestLow, double? FastestHigh)
{
    /// <summary>The fastest iterations' ratio in the shape the coverage table reads (Mean: the ratio).</summary>
    public Measured? AsFastest() => Fastest is { } ratio ? new Measured(ratio, double.NaN, FastestLow, FastestHigh, FastestLow is null ? null : "launches", null, null, null) : null;
}
