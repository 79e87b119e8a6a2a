// Two questions about the machine quick mode measures on, in one run (docs/performance.md, "The machine's state"):
//
// 1. Does the machine's speed change while one process runs, and for which code? This script times, in its own
//    process, 20 ms of a long chain of dependent multiplies (it sees the core's clock) and 20 ms of a 9-step loop
//    called again and again (it sees how well the core predicts a short loop's exit), one after the other, for
//    --seconds. It reports each one's fastest level, median and the share of its chunks near its fastest.
// 2. Would quick mode's intervals narrow if each iteration were read against the machine's state when it ran? It
//    runs `perflab bench FILE --mode quick --launches N --force` with the hosts' JIT trace and speed probe on
//    (PERFLAB_JIT_TRACE, PERFLAB_SPEED_PROBE: the same two timings after each warm-up and measured iteration), and
//    for each case compares the interval quick mode shows with the interval of each launch's iterations adjusted
//    to the run's fastest short-loop level: ln t - b (ln p - ln p_fast), where p is the mean of the short-loop probe
//    before and after the iteration and b the case's sensitivity to it (the slope of ln t on ln p, pooled over its
//    runtimes' iterations, each runtime centred on its own mean). Both intervals come from RatioInterval with the
//    mode's widening (quick mode's, or none in full mode), as the table shows them.
//
// Usage (from the repository root):
//   dotnet run bench/machine-state/measure.cs -- [--file BENCH.cs] [--filter PATTERN] [--runtimes net8.0,net9.0,net10.0] [--mode quick|full]
//     [--launches N] [--seconds S] [--reps N] [--against FULL.json] [--out FILE.md]
// --against: a results file of a full run of the same cases (`perflab reference --mode full --launches 3 --suite-only`
// writes one): each interval is also checked for holding that run's ratio, and the same is done for the first 2, 3 and 4
// launches of each case and runtime, which is what quick mode would show with that many launches.
// --mode full runs BenchmarkDotNet's default job in each launch instead (the probe runs there too), for what full mode's
// processes see.
#:project ../Shared
// The results reader (ResultJsonReader, for --against) uses reflection-based JSON, which file-based programs turn off.
#:property JsonSerializerIsReflectionEnabledByDefault=true
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using PerfLab.Contract;
using PerfLab.Host;
using PerfLab.Results;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/machine-state/measure.cs", 1, "--file BENCH.cs", "--filter PATTERN", "--runtimes LIST", "--mode MODE", "--launches N", "--seconds S", "--against FILE") is not { } options)
{
    return 2;
}

var repo = FindRepo();
var file = Path.GetFullPath(options.Values.GetValueOrDefault("--file") ?? Path.Combine(repo, "data", "reference", "suite", "RuntimeDifferences.cs"));
var runtimes = (options.Values.GetValueOrDefault("--runtimes") ?? "net8.0,net9.0,net10.0").Split(',').Select(r => r.Trim()).Where(r => r.Length > 0).ToArray();
var mode = options.Values.GetValueOrDefault("--mode") ?? "quick";
var benchmarkMode = mode == "full" ? BenchmarkMode.Full : BenchmarkMode.Quick;
if (mode is not ("quick" or "full") || !int.TryParse(options.Values.GetValueOrDefault("--launches") ?? "6", CultureInfo.InvariantCulture, out var launches) || launches < 2
    || !double.TryParse(options.Values.GetValueOrDefault("--seconds") ?? "30", CultureInfo.InvariantCulture, out var seconds) || seconds <= 0)
{
    Console.Error.WriteLine("bench/machine-state/measure.cs: --mode takes quick or full, --launches a whole number of 2 or more, --seconds a positive number.");
    return 2;
}

var against = options.Values.GetValueOrDefault("--against") is { } againstPath ? Path.GetFullPath(againstPath) : null;
if (against is not null && !File.Exists(against))
{
    Console.Error.WriteLine($"bench/machine-state/measure.cs: --against: no file {against}; give a results file `perflab reference` wrote.");
    return 2;
}

var fullRatios = against is null ? [] : FullRatios(against);
if (!File.Exists(file))
{
    Console.Error.WriteLine($"bench/machine-state/measure.cs: no file {file}; --file takes a C# file of BenchmarkDotNet classes.");
    return 2;
}

var report = new StringBuilder();
report.AppendLine(CultureInfo.InvariantCulture, $"### The machine's state (bench/machine-state/measure.cs, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, load average {LoadAverage()})");
report.AppendLine();

// 1. The machine's speed inside one process.
Log($"timing a multiply chain and a short loop for {seconds:F0} s in this process");
var (chains, shortLoops) = Drift.Run(TimeSpan.FromSeconds(seconds));
report.AppendLine(CultureInfo.InvariantCulture, $"One process, {chains.Count} pairs of 20 ms chunks over {seconds:F0} s (ns per chain step, ns per call of the 9-step loop):");
report.AppendLine();
report.AppendLine("| Code | Fastest level (5th percentile) | Median | Slowest | Chunks within 1.2x of the fastest level |");
report.AppendLine("|---|---:|---:|---:|---:|");
foreach (var (name, values) in new[] { ("dependent multiplies", chains), ("9-step loop", shortLoops) })
{
    var fast = Percentile(values, 0.05);
    report.AppendLine(CultureInfo.InvariantCulture, $"| {name} | {fast:F2} | {Median(values):F2} | {values.Max():F2} | {values.Count(v => v < 1.2 * fast) / (double)values.Count:P0} |");
}

var chainFast = Percentile(chains, 0.05);
var loopFast = Percentile(shortLoops, 0.05);
var clockSteady = Enumerable.Range(0, chains.Count).Where(i => chains[i] < 1.1 * chainFast).ToArray();
report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture,
    $"Of the {clockSteady.Length} pairs whose multiply chain ran within 1.1x of its fastest, the short loop ran slower than 1.2x its fastest in {clockSteady.Count(i => shortLoops[i] > 1.2 * loopFast)}: its slow phases are not the clock's.");
report.AppendLine();

// 2. Quick runs with the probe beside every iteration.
Log("building the CLI (Release)");
var cli = BuildCli(repo, "Release");
Run("dotnet", [cli, "runtimes", "--provision"]);
var work = Directory.CreateTempSubdirectory("perflab-machine-state-").FullName;
var rows = new List<string>();
var todayWidths = new List<double>();
var adjustedWidths = new List<double>();
var unadjustedWidths = new List<double>();
// Per number of launches used (the first K of each case and runtime): (unadjusted, adjusted) half-widths and whether each held the full ratio.
var coverage = new SortedDictionary<int, List<(double Plain, bool PlainHolds, double Adjusted, bool AdjustedHolds)>>();
for (var rep = 1; rep <= options.Repetitions; rep++)
{
    var traces = Path.Combine(work, $"trace-{rep}");
    var json = Path.Combine(work, $"run-{rep}.json");
    Log($"repetition {rep}/{options.Repetitions}: {mode} run of {Path.GetFileName(file)}, {launches} launches (load average {LoadAverage()})");
    string[] filter = options.Values.TryGetValue("--filter", out var pattern) ? ["--filter", pattern] : [];
    var run = Run("dotnet", [cli, "bench", file, "--mode", mode, "--runtimes", .. runtimes, "--launches", launches.ToString(CultureInfo.InvariantCulture), "--force", .. filter,
        "--json", json, "--env", $"PERFLAB_JIT_TRACE={traces}", "--env", "PERFLAB_SPEED_PROBE=1"], timeout: TimeSpan.FromHours(3));
    var launchTraces = Directory.GetFiles(traces).Select(LaunchTrace.Read).OfType<LaunchTrace>().ToArray();
    var probeFast = Percentile(launchTraces.SelectMany(l => l.Iterations.Select(i => i.Probe)).ToList(), 0.05);
    var fastShare = launchTraces.SelectMany(l => l.Iterations).Count(i => i.Probe < 1.2 * probeFast) / (double)launchTraces.Sum(l => l.Iterations.Count);
    rows.Add($"| **run {rep}** ({run.Seconds:F0} s, {DateTime.UtcNow:HH:mm} UTC; short-loop probe's fastest level {probeFast:F2} ns, iterations within 1.2x of it: {fastShare:P0}) | | | | | |");

    // Quick mode's own ratios are between runtimes only when no method is the class's baseline.
    using var document = JsonDocument.Parse(File.ReadAllText(json));
    var byRuntime = document.RootElement.GetProperty("baseline").GetString()?.StartsWith("runtime", StringComparison.Ordinal) == true;
    var shown = document.RootElement.GetProperty("results").EnumerateArray()
        .Where(r => byRuntime && r.TryGetProperty("ratioInterval", out var i) && i.ValueKind == JsonValueKind.Object)
        .ToDictionary(r => (r.GetProperty("method").GetString()!, r.GetProperty("runtime").GetString()!), r => (Ratio: r.GetProperty("ratio").GetDouble(), Low: r.GetProperty("ratioInterval").GetProperty("low").GetDouble(), High: r.GetProperty("ratioInterval").GetProperty("high").GetDouble()));
    foreach (var @case in launchTraces.GroupBy(l => (l.Case, l.Method)).OrderBy(g => g.Key.Case))
    {
        foreach (var first in new[] { 2, 3, 4, launches }.Where(k => k <= launches).Distinct())
        {
            var some = @case.GroupBy(l => l.Runtime).SelectMany(r => r.OrderBy(l => l.Started).Take(first)).ToArray();
            var someFast = Percentile(launchTraces.GroupBy(l => (l.Case, l.Runtime)).SelectMany(g => g.OrderBy(l => l.Started).Take(first)).SelectMany(l => l.Iterations.Select(i => i.Probe)).ToList(), 0.05);
            var someSlope = Slope(some);
            foreach (var runtime in runtimes.Skip(1))
            {
                if (!fullRatios.TryGetValue((@case.Key.Method, runtime), out var full))
                {
                    continue;
                }

                double PlainK((double Ns, double Probe) i) => Math.Log(i.Ns);
                double AdjustedK((double Ns, double Probe) i) => Math.Log(i.Ns) - (someSlope * (Math.Log(i.Probe) - Math.Log(someFast)));
                var plainK = Interval(SideOf(some, runtime, PlainK), SideOf(some, runtimes[0], PlainK), benchmarkMode);
                var adjustedK = Interval(SideOf(some, runtime, AdjustedK), SideOf(some, runtimes[0], AdjustedK), benchmarkMode);
                if (plainK is { } p && adjustedK is { } a)
                {
                    (coverage.TryGetValue(first, out var list) ? list : coverage[first] = []).Add((p.HalfWidth, p.Low <= full && full <= p.High, a.HalfWidth, a.Low <= full && full <= a.High));
                }
            }
        }

        var slope = Slope(@case);

        double Adjusted((double Ns, double Probe) i) => Math.Log(i.Ns) - (slope * (Math.Log(i.Probe) - Math.Log(probeFast)));
        double Unadjusted((double Ns, double Probe) i) => Math.Log(i.Ns);
        var baseline = runtimes[0];
        foreach (var runtime in runtimes.Skip(1))
        {
            var plain = Interval(SideOf(@case, runtime, Unadjusted), SideOf(@case, baseline, Unadjusted), benchmarkMode);
            var adjusted = Interval(SideOf(@case, runtime, Adjusted), SideOf(@case, baseline, Adjusted), benchmarkMode);
            var today = shown.TryGetValue((@case.Key.Method, runtime), out var s) ? s : default;
            if (today.Ratio > 0)
            {
                todayWidths.Add((today.High - today.Low) / 2 / today.Ratio);
            }

            unadjustedWidths.AddRange(plain is { } p ? [p.HalfWidth] : []);
            adjustedWidths.AddRange(adjusted is { } a ? [a.HalfWidth] : []);
            var fullShown = fullRatios.TryGetValue((@case.Key.Method, runtime), out var f) ? f.ToString("F2", CultureInfo.InvariantCulture) : "–";
            rows.Add(string.Create(CultureInfo.InvariantCulture,
                $"| {@case.Key.Method} {runtime} / {baseline} | {(today.Ratio > 0 ? $"{today.Ratio:F2} ({today.Low:F2}–{today.High:F2})" : "–")} | {Show(plain)} | {Show(adjusted)} | {slope:F2} | {fullShown} |"));
        }
    }
}

report.AppendLine(CultureInfo.InvariantCulture, $"{(mode == "quick" ? "Quick" : "Full-mode")} runs of {Path.GetFileName(file)} ({launches} launches per case and runtime), each ratio with its 95% interval: as {mode} mode shows it (– where a method is the class's baseline, so it compares methods); from each launch's iterations, geometric mean; the same adjusted to the run's fastest short-loop level (b: the case's sensitivity to the probe):");
report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"| Case | {(mode == "quick" ? "Quick" : "Full")} mode shows | Iterations, unadjusted | Adjusted to the fast state | b | Full run (--against) |");
report.AppendLine("|---|---:|---:|---:|---:|---:|");
rows.ForEach(r => report.AppendLine(r));
report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture,
    $"Median half-width: {mode} mode shows {(todayWidths.Count > 0 ? Median(todayWidths).ToString("P0", CultureInfo.InvariantCulture) : "none (it compares methods here)")}; unadjusted {Median(unadjustedWidths):P0}; adjusted {Median(adjustedWidths):P0} ({adjustedWidths.Count} ratios).");
report.AppendLine();
if (coverage.Count > 0)
{
    report.AppendLine(CultureInfo.InvariantCulture, $"Against {Path.GetFileName(against)} (each case and runtime's first K launches, every run):");
    report.AppendLine();
    report.AppendLine("| Launches used | Ratios | Unadjusted: holds the full ratio | median half-width | Adjusted: holds the full ratio | median half-width |");
    report.AppendLine("|---:|---:|---:|---:|---:|---:|");
    foreach (var (first, list) in coverage)
    {
        report.AppendLine(CultureInfo.InvariantCulture,
            $"| {first} | {list.Count} | {list.Count(c => c.PlainHolds)} | {Median(list.Select(c => c.Plain)):P0} | {list.Count(c => c.AdjustedHolds)} | {Median(list.Select(c => c.Adjusted)):P0} |");
    }

    report.AppendLine();
}

report.AppendLine(CultureInfo.InvariantCulture, $"Work folder (JSON, traces): {work}");
Console.WriteLine(report);
if (options.OutPath is { } outPath)
{
    File.WriteAllText(outPath, report.ToString());
}

return 0;

// One side of a ratio: each launch's iterations of the runtime, their geometric mean after value (a log).
static BenchmarkResult SideOf(IEnumerable<LaunchTrace> launches, string runtime, Func<(double Ns, double Probe), double> value)
{
    var means = launches.Where(l => l.Runtime == runtime).Select(l => l.Iterations.Where(i => i.Ns > 0).ToArray()).Where(i => i.Length > 0)
        .Select(i => Math.Exp(i.Average(value))).ToArray();
    return Result(runtime, means);
}

// Each (method, runtime)'s ratio of means in a results file `perflab reference` wrote.
static Dictionary<(string Method, string Runtime), double> FullRatios(string path)
{
    using var document = JsonDocument.Parse(File.ReadAllText(path));
    var ratios = new Dictionary<(string, string), double>();
    foreach (var suiteRun in document.RootElement.GetProperty("runs").EnumerateArray())
    {
        foreach (var row in ResultJsonReader.Read(suiteRun.GetProperty("run").GetRawText()).Results)
        {
            if (row is { Ratio: { } ratio, Error: null })
            {
                ratios[(row.Method, row.Runtime)] = ratio;
            }
        }
    }

    return ratios;
}

static double Percentile(IReadOnlyList<double> values, double share) => values.Order().ElementAt((int)Math.Floor(share * (values.Count - 1)));

// The slope of ln(ns) on ln(probe) over a case's iterations, each runtime centred on its own means, kept within 0..2.
static double Slope(IEnumerable<LaunchTrace> launches)
{
    double cross = 0, square = 0;
    foreach (var runtime in launches.GroupBy(l => l.Runtime))
    {
        var points = runtime.SelectMany(l => l.Iterations).Where(i => i.Ns > 0).Select(i => (X: Math.Log(i.Probe), Y: Math.Log(i.Ns))).ToArray();
        if (points.Length < 2)
        {
            continue;
        }

        var (x, y) = (points.Average(p => p.X), points.Average(p => p.Y));
        cross += points.Sum(p => (p.X - x) * (p.Y - y));
        square += points.Sum(p => (p.X - x) * (p.X - x));
    }

    return square > 0 ? Math.Clamp(cross / square, 0, 2) : 0;
}

static BenchmarkResult Result(string runtime, double[] launchMeans)
{
    var mean = launchMeans.Length > 0 ? launchMeans.Average() : 0;
    return new BenchmarkResult("Case", "Case", [], false, runtime, "", new CaseStatistics(mean, 0, 0, mean, mean, mean, launchMeans.Length),
        launchMeans, launchMeans, launchMeans, null, null, null, null, null, null, null, null, null, false, [], null);
}

static (double Ratio, double Low, double High, double HalfWidth)? Interval(BenchmarkResult row, BenchmarkResult baseline, BenchmarkMode mode) =>
    baseline.Statistics!.Mean > 0 && RatioInterval.Between(row, baseline, mode) is { } interval
        ? (row.Statistics!.Mean / baseline.Statistics.Mean, interval.Low, interval.High, (interval.High - interval.Low) / 2 / (row.Statistics.Mean / baseline.Statistics.Mean))
        : null;

static string Show((double Ratio, double Low, double High, double HalfWidth)? interval) =>
    interval is { } i ? string.Create(CultureInfo.InvariantCulture, $"{i.Ratio:F2} ({i.Low:F2}–{i.High:F2})") : "–";

/// <summary>One launch's measured iterations, read from its JIT trace: each iteration's time less the launch's overhead, and the short-loop probe beside it.</summary>
internal sealed partial record LaunchTrace(string Runtime, int Case, string Method, string Started, IReadOnlyList<(double Ns, double Probe)> Iterations)
{
    public static LaunchTrace? Read(string path)
    {
        var name = FileName().Match(Path.GetFileName(path));
        var lines = File.ReadAllLines(path);
        var result = lines.Select(l => ResultLine().Match(l)).FirstOrDefault(m => m.Success);
        if (!name.Success || result is null)
        {
            return null;
        }

        // "LINE WorkloadActual N: ... X ns/op" then "PROBE chain short"; the iteration's state is the mean of the short
        // loop's probe before and after it (the one before a first measured iteration follows the last warm-up).
        var probes = new List<(int Line, double Short)>();
        var measured = new List<(int Line, double Raw)>();
        for (var i = 0; i < lines.Length; i++)
        {
            if (ProbeLine().Match(lines[i]) is { Success: true } probe)
            {
                probes.Add((i, double.Parse(probe.Groups["short"].Value, CultureInfo.InvariantCulture)));
            }
            else if (ActualLine().Match(lines[i]) is { Success: true } actual)
            {
                var perOperation = double.Parse(actual.Groups["value"].Value, CultureInfo.InvariantCulture);
                measured.Add((i, perOperation * actual.Groups["unit"].Value switch { "us" or "μs" => 1e3, "ms" => 1e6, "s" => 1e9, _ => 1 }));
            }
        }

        if (measured.Count == 0)
        {
            return null;
        }

        // BenchmarkDotNet's result is the raw iterations less its overhead estimate; the same offset applies to each.
        var overhead = measured.Average(m => m.Raw) - double.Parse(result.Groups["mean"].Value, CultureInfo.InvariantCulture);
        var iterations = new List<(double, double)>();
        foreach (var (line, raw) in measured)
        {
            var around = probes.Where(p => p.Line < line).TakeLast(1).Concat(probes.Where(p => p.Line > line).Take(1)).Select(p => p.Short).ToArray();
            if (around.Length > 0)
            {
                iterations.Add((raw - overhead, around.Average()));
            }
        }

        return new LaunchTrace(name.Groups["runtime"].Value, int.Parse(name.Groups["case"].Value, CultureInfo.InvariantCulture), result.Groups["method"].Value, name.Groups["started"].Value, iterations);
    }

    [GeneratedRegex(@"^(?<runtime>net\d+\.0)-case(?<case>\d+)-(?<started>\d+)-")]
    private static partial Regex FileName();

    [GeneratedRegex(@"^RESULT (?<method>\S+) mean=(?<mean>[\d.]+)")]
    private static partial Regex ResultLine();

    [GeneratedRegex(@"PROBE (?<chain>[\d.]+) (?<short>[\d.]+)$")]
    private static partial Regex ProbeLine();

    [GeneratedRegex(@"LINE WorkloadActual\s+\d+: .* (?<value>[\d.]+) (?<unit>ns|us|μs|ms|s)/op$")]
    private static partial Regex ActualLine();
}

/// <summary>Alternates about 20 ms of the multiply chain and of the short loop (<see cref="MachineSpeed"/>) in this process, as ns per step and per call.</summary>
internal static class Drift
{
    // About 20 ms each on this machine at its fastest.
    private const int ChainSteps = 20_000_000;
    private const int ShortLoopCalls = 4_000_000;

    public static (List<double> Chains, List<double> ShortLoops) Run(TimeSpan length)
    {
        var (chains, shortLoops) = (new List<double>(), new List<double>());
        _ = MachineSpeed.MultiplyChain(1) + MachineSpeed.ShortLoop(1);
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < length)
        {
            chains.Add(MachineSpeed.MultiplyChain(ChainSteps));
            shortLoops.Add(MachineSpeed.ShortLoop(ShortLoopCalls));
        }

        return (chains, shortLoops);
    }
}
