// Would launches that take turns iteration by iteration give steadier ratios than launches run one after another?
// (docs/performance.md, "Runtimes taking turns".)
//
// On the course machine whole launches of one case differ by 20-45%: the machine's state (a core shared with another
// tenant) changes over seconds, and a launch's 0.3 s of measuring samples one state. Quick mode runs a case's launch
// on each runtime one after the other, so the runtimes of one round can sample different states and their ratio
// moves with it. This script compares two ways of running one round, with a worker of its own (bench/turns/worker:
// no BenchmarkDotNet, a Stopwatch around about 25 ms of calls) on .NET 8, 9 and 10:
//   one after another   each runtime's process starts, settles its tiering, runs 2 warm-up and 5 measured iterations
//                       and exits, then the next runtime's (what quick mode does today);
//   in turns            the three processes start and settle one after another, then run their iterations in turn:
//                       8, 9, 10, 8, 9, 10, ... so each runtime's iteration sits next to the others' in time.
// Each design runs once with the runtimes in a fixed order (.NET 8 first, as quick mode's rounds do) and once with the
// order rotating one place a round, which shows whether a runtime's place in a round matters.
// Never two processes measure at once: while a worker waits for its turn it only waits on its stdin.
// For each case, each round gives one launch mean per runtime and design, and a ratio against .NET 8 per runtime.
// Reported: the spread of those ratios between rounds (standard deviation of their logarithm), the spread of the
// launch means themselves, and the geometric mean ratio, per design. A design whose one-launch ratios spread less
// needs fewer launches for the same interval. The designs alternate within each round, so drift hits both.
//
// Usage (from the repository root; .NET 8 and 9 provisioned in PERFLAB_HOME, as `perflab runtimes` leaves them):
//   dotnet run bench/turns/measure.cs -- [--rounds N] [--out FILE.md]
#:project ../Shared
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using PerfLab;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/turns/measure.cs", 1, "--rounds N") is not { } options)
{
    return 2;
}

if (!int.TryParse(options.Values.GetValueOrDefault("--rounds") ?? "12", CultureInfo.InvariantCulture, out var rounds) || rounds < 3)
{
    Console.Error.WriteLine("bench/turns/measure.cs: --rounds takes a whole number of 3 or more.");
    return 2;
}

var repo = FindRepo();
var workerProject = Path.Combine(repo, "bench", "turns", "worker", "TurnsWorker.csproj");
Log("building the worker (bench/turns/worker, Release) ...");
Run("dotnet", ["build", workerProject, "-c", "Release", "-v", "q", "--nologo"], repo);
var workerDll = Path.Combine(repo, "bench", "turns", "worker", "bin", "Release", "net8.0", "TurnsWorker.dll");

// .NET 8 and 9 from the course's home (provisioned from NuGet runtime packs), .NET 10 from the SDK running this script.
var home = PerfLabHome.Default();
var sdkRoot = Path.GetFullPath(Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "..", "..", ".."));
var runtimes = new[] { Runtime("net8.0", 8, home.DotnetRoot), Runtime("net9.0", 9, home.DotnetRoot), Runtime("net10.0", 10, sdkRoot) };
string[] cases = ["digits-as-interface", "array-loop"];
// Each design with the runtimes in a fixed order (.NET 8 first, as quick mode's rounds run them) and rotating one
// place a round, which shows whether the place in a round matters.
string[] designs = ["one after another", "one after another, rotating", "in turns", "in turns, rotating"];
const int WarmUps = 2, Measured = 5;

// means[(case, design)][round][runtime index]
var means = new Dictionary<(string Case, string Design), List<double[]>>();
var started = DateTime.UtcNow;
var loadAtStart = LoadAverage();
for (var round = 0; round < rounds; round++)
{
    foreach (var caseName in cases)
    {
        // Alternate which design goes first, so a drift over the round hits them alike.
        foreach (var design in round % 2 == 0 ? designs : designs.Reverse())
        {
            var order = Enumerable.Range(0, runtimes.Length).Select(r => design.EndsWith("rotating", StringComparison.Ordinal) ? (r + round) % runtimes.Length : r).ToArray();
            var roundMeans = design.StartsWith("in turns", StringComparison.Ordinal) ? InTurns(caseName, order) : OneAfterAnother(caseName, order);
            (means.TryGetValue((caseName, design), out var list) ? list : means[(caseName, design)] = []).Add(roundMeans);
        }
    }

    Log($"round {round + 1} of {rounds} done");
}

var report = new StringBuilder();
report.AppendLine(CultureInfo.InvariantCulture, $"bench/turns/measure.cs, {started:yyyy-MM-dd HH:mm}-{DateTime.UtcNow:HH:mm} UTC, {Environment.ProcessorCount} cores, load average {loadAtStart} at start, {LoadAverage()} at end; {rounds} rounds, {WarmUps} warm-up and {Measured} measured iterations of about 25 ms a launch.");
report.AppendLine();
report.AppendLine("| Case | Runtime | Design | Geometric mean ratio to .NET 8 | Spread of one-launch ratios (sd of ln) | Spread of launch means (sd of ln) |");
report.AppendLine("|---|---|---|---:|---:|---:|");
foreach (var caseName in cases)
{
    for (var r = 1; r < runtimes.Length; r++)
    {
        foreach (var design in designs)
        {
            var rows = means[(caseName, design)];
            var logRatios = rows.Select(m => Math.Log(m[r] / m[0])).ToArray();
            var logMeans = rows.Select(m => Math.Log(m[r])).ToArray();
            report.AppendLine(CultureInfo.InvariantCulture, $"| {caseName} | {runtimes[r].Name} | {design} | {Math.Exp(logRatios.Average()):F3} | {StandardDeviation(logRatios):P1} | {StandardDeviation(logMeans):P1} |");
        }
    }

    foreach (var design in designs)
    {
        var logMeans = means[(caseName, design)].Select(m => Math.Log(m[0])).ToArray();
        report.AppendLine(CultureInfo.InvariantCulture, $"| {caseName} | net8.0 | {design} | | | {StandardDeviation(logMeans):P1} |");
    }
}

// What quick mode would show from N launches a side: the rounds cut into blocks of N, each block's interval for the
// ratio either from its rounds as pairs (a t interval on the logs of the N one-launch ratios: what taking turns
// allows) or from the two sides' launch means as independent samples (Welch, as quick mode's interval is today),
// checked against the ratio of every round of both designs (the geometric mean over all of them).
report.AppendLine();
report.AppendLine("Intervals from N launches a side (blocks of N rounds), held against the geometric mean ratio over every round of both designs:");
report.AppendLine();
report.AppendLine("| Case | Runtime | Design | Interval | N | Blocks | Held | Median half-width |");
report.AppendLine("|---|---|---|---|---:|---:|---:|---:|");
foreach (var caseName in cases)
{
    for (var r = 1; r < runtimes.Length; r++)
    {
        var all = designs.SelectMany(d => means[(caseName, d)]).Select(m => Math.Log(m[r] / m[0])).ToArray();
        var target = all.Average();
        foreach (var design in designs)
        {
            foreach (var paired in new[] { true, false })
            {
                foreach (var n in new[] { 3, 4 })
                {
                    var rows = means[(caseName, design)];
                    var blocks = Enumerable.Range(0, rows.Count / n).Select(b => rows.Skip(b * n).Take(n).ToArray()).ToArray();
                    var intervals = blocks.Select(block => paired ? PairedInterval(block, r) : IndependentInterval(block, r)).ToArray();
                    var held = intervals.Count(i => Math.Abs(i.Centre - target) <= i.HalfWidth);
                    var halfWidth = Median(intervals.Select(i => Math.Exp(i.HalfWidth) - 1));
                    report.AppendLine(CultureInfo.InvariantCulture, $"| {caseName} | {runtimes[r].Name} | {design} | {(paired ? "paired" : "independent")} | {n} | {blocks.Length} | {held} | {halfWidth:P1} |");
                }
            }
        }
    }
}

report.AppendLine();
report.AppendLine("Launch means, ns a call, round by round (net8.0 / net9.0 / net10.0):");
report.AppendLine();
foreach (var ((caseName, design), rows) in means)
{
    report.AppendLine(CultureInfo.InvariantCulture, $"- {caseName}, {design}: {string.Join("; ", rows.Select(m => string.Join(" / ", m.Select(v => v.ToString("F1", CultureInfo.InvariantCulture)))))}");
}

Console.WriteLine(report);
if (options.OutPath is { } outPath)
{
    File.WriteAllText(outPath, report.ToString());
    // The launch means themselves (tab-separated, a line per case, design and round), to read again without measuring again.
    var header = $"case\tdesign\tround\t{string.Join('\t', runtimes.Select(r => r.Name))}";
    var lines = means.SelectMany(e => e.Value.Select((m, round) => $"{e.Key.Case}\t{e.Key.Design}\t{round + 1}\t{string.Join('\t', m.Select(v => v.ToString("R", CultureInfo.InvariantCulture)))}"));
    File.WriteAllLines(Path.ChangeExtension(outPath, ".tsv"), [header, .. lines]);
}

return 0;

// Each runtime's launch in full, one after the other, in the order given; the means by runtime.
double[] OneAfterAnother(string caseName, int[] order)
{
    var result = new double[runtimes.Length];
    foreach (var r in order)
    {
        using var worker = Worker.Start(runtimes[r], workerDll, caseName);
        worker.Ask("settle");
        var times = Enumerable.Range(0, WarmUps + Measured).Select(_ => double.Parse(worker.Ask("iteration"), CultureInfo.InvariantCulture)).ToArray();
        result[r] = times[WarmUps..].Average();
    }

    return result;
}

// The runtimes' processes start and settle one after another, then time their iterations in turn, in the order
// given; the means by runtime.
double[] InTurns(string caseName, int[] order)
{
    var workers = new Worker[runtimes.Length];
    try
    {
        foreach (var r in order)
        {
            workers[r] = Worker.Start(runtimes[r], workerDll, caseName);
            workers[r].Ask("settle");
        }

        var times = runtimes.Select(_ => new List<double>()).ToArray();
        for (var i = 0; i < WarmUps + Measured; i++)
        {
            foreach (var r in order)
            {
                times[r].Add(double.Parse(workers[r].Ask("iteration"), CultureInfo.InvariantCulture));
            }
        }

        return times.Select(t => t.Skip(WarmUps).Average()).ToArray();
    }
    finally
    {
        foreach (var worker in workers)
        {
            worker?.Dispose();
        }
    }
}

// On the log scale: the mean log ratio and the half-width of its 95% t interval.
static (double Centre, double HalfWidth) PairedInterval(double[][] block, int runtime)
{
    var logRatios = block.Select(m => Math.Log(m[runtime] / m[0])).ToArray();
    return (logRatios.Average(), StudentT(logRatios.Length - 1) * StandardDeviation(logRatios) / Math.Sqrt(logRatios.Length));
}

static (double Centre, double HalfWidth) IndependentInterval(double[][] block, int runtime)
{
    var side = block.Select(m => Math.Log(m[runtime])).ToArray();
    var baseline = block.Select(m => Math.Log(m[0])).ToArray();
    var (va, vb) = (Variance(side) / side.Length, Variance(baseline) / baseline.Length);
    // Welch-Satterthwaite degrees of freedom.
    var freedom = (va + vb) * (va + vb) / (va * va / (side.Length - 1) + vb * vb / (baseline.Length - 1));
    return (side.Average() - baseline.Average(), StudentT((int)Math.Floor(Math.Max(1, freedom))) * Math.Sqrt(va + vb));
}

// The 97.5th percentile of Student's t for the degrees of freedom the blocks here have.
static double StudentT(int freedom) => freedom switch
{
    1 => 12.706,
    2 => 4.303,
    3 => 3.182,
    4 => 2.776,
    5 => 2.571,
    6 => 2.447,
    _ => 2.365,
};

static double Variance(double[] values)
{
    var mean = values.Average();
    return values.Sum(v => (v - mean) * (v - mean)) / (values.Length - 1);
}

static double StandardDeviation(double[] values)
{
    return Math.Sqrt(Variance(values));
}

static RuntimeChoice Runtime(string name, int major, string dotnetRoot)
{
    var frameworks = Path.Combine(dotnetRoot, "shared", "Microsoft.NETCore.App");
    var version = Directory.Exists(frameworks)
        ? Directory.EnumerateDirectories(frameworks).Select(Path.GetFileName).FirstOrDefault(v => v!.StartsWith(major + ".", StringComparison.Ordinal))
        : null;
    return version is null
        ? throw new InvalidOperationException($"No .NET {major} runtime under {frameworks}: run `perflab runtimes` (or ./setup.sh) first.")
        : new RuntimeChoice(name, Path.Combine(dotnetRoot, "dotnet"), version);
}

/// <summary>A runtime to start the worker on: the dotnet host of its installation and the exact framework version.</summary>
internal sealed record RuntimeChoice(string Name, string Dotnet, string Version);

/// <summary>One worker process on one runtime, asked one line at a time; killed with its tree when disposed.</summary>
internal sealed class Worker : IDisposable
{
    private readonly Process _process;

    private Worker(Process process) => _process = process;

    public static Worker Start(RuntimeChoice runtime, string workerDll, string caseName)
    {
        var info = new ProcessStartInfo(runtime.Dotnet)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { "exec", "--fx-version", runtime.Version, workerDll, caseName })
        {
            info.ArgumentList.Add(argument);
        }

        // As quick mode's hosts start: call counting from the first calls, so settling takes about a second.
        info.Environment["DOTNET_TC_CallCountingDelayMs"] = "0";
        return new Worker(Process.Start(info) ?? throw new InvalidOperationException($"could not start {runtime.Dotnet}"));
    }

    public string Ask(string command)
    {
        _process.StandardInput.WriteLine(command);
        _process.StandardInput.Flush();
        var answer = _process.StandardOutput.ReadLine() ?? throw new InvalidOperationException($"the worker exited after '{command}'");
        return answer.StartsWith("error", StringComparison.Ordinal) ? throw new InvalidOperationException(answer) : answer;
    }

    public void Dispose()
    {
        _process.StandardInput.Close();
        if (!_process.WaitForExit(5_000))
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
    }
}
