// Measures what quick mode's tiering warm-up buys (the host drives each case until tiered compilation
// settles before BenchmarkDotNet measures it). In one run on this machine: a reference (quick mode, no
// extra load, warm-up on), then, with busy threads loading every core, alternating runs with the
// warm-up off (PERFLAB_SKIP_TIERING_WARMUP=1) and on. For each case it reports the reference mean and
// the worst loaded mean of each variant as a ratio to it: Tier0 code shows as ratios far above the
// slowdown the load itself causes (about 2x here).
//
// Usage (from the repository root): dotnet run bench/tiering/measure.cs -- [--reps N] [--out FILE.md]
// About 4 minutes with 3 repetitions.
#:project ../Shared
using System.Globalization;
using System.Text;
using System.Text.Json;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/tiering/measure.cs", 3) is not { } options)
{
    return 2;
}

var reps = options.Repetitions;
var outPath = options.OutPath;

var repo = FindRepo();
var work = Directory.CreateTempSubdirectory("perflab-tiering-").FullName;
var probe = Path.Combine(repo, "bench", "tiering", "TierProbe.cs");
var env = new Dictionary<string, string> { ["PERFLAB_HOME"] = Path.Combine(work, "home") };

Log("building the CLI");
var cliDll = BuildCli(repo, "Debug");
Run("dotnet", [cliDll, "runtimes", "--provision"], environment: env);

Dictionary<string, double> Bench(string name, bool warmup)
{
    var json = Path.Combine(work, name + ".json");
    string[] arguments = [cliDll, "bench", probe, "--mode", "quick", "--runtimes", "net8.0", "net10.0", "--force", "--json", json];
    Run("dotnet", warmup ? arguments : [.. arguments, "--env", "PERFLAB_SKIP_TIERING_WARMUP=1"], environment: env);
    using var document = JsonDocument.Parse(File.ReadAllText(json));
    return document.RootElement.GetProperty("results").EnumerateArray()
        .ToDictionary(r => $"{r.GetProperty("method").GetString()} {r.GetProperty("runtime").GetString()}", r => r.GetProperty("statistics").GetProperty("mean").GetDouble());
}

Log("reference: quick mode, warm-up on, no extra load");
var reference = Bench("reference", warmup: true);

var off = new List<Dictionary<string, double>>();
var on = new List<Dictionary<string, double>>();
using (var load = new Load(Environment.ProcessorCount + 1))
{
    for (var rep = 1; rep <= reps; rep++)
    {
        Log($"loaded, repetition {rep}/{reps}: warm-up off, then on");
        off.Add(Bench($"off-{rep}", warmup: false));
        on.Add(Bench($"on-{rep}", warmup: true));
    }
}

var report = new StringBuilder();
report.AppendLine(CultureInfo.InvariantCulture, $"### Results (bench/tiering/measure.cs, {DateTime.UtcNow:yyyy-MM-dd}, {Environment.ProcessorCount} cores, {Environment.ProcessorCount + 1} busy threads, {reps} repetitions)");
report.AppendLine();
report.AppendLine("| Case | Reference mean (ns) | Worst loaded, warm-up off (× reference) | Worst loaded, warm-up on (× reference) |");
report.AppendLine("|---|---:|---:|---:|");
foreach (var (key, mean) in reference.OrderBy(k => k.Key, StringComparer.Ordinal))
{
    var worstOff = off.Max(r => r[key]) / mean;
    var worstOn = on.Max(r => r[key]) / mean;
    report.AppendLine(CultureInfo.InvariantCulture, $"| {key} | {mean:F1} | {worstOff:F1} | {worstOn:F1} |");
}

Console.WriteLine(report);
if (outPath is not null)
{
    File.WriteAllText(outPath, report.ToString());
}

Directory.Delete(work, recursive: true);
return 0;

// Busy threads on every core (and one more): the shared, noisy machine the course runs on, made worse on purpose.
internal sealed class Load : IDisposable
{
    private volatile bool _stop;
    private readonly Thread[] _threads;

    public Load(int threads)
    {
        _threads = Enumerable.Range(0, threads).Select(_ => new Thread(() => { while (!_stop) { } }) { IsBackground = true }).ToArray();
        foreach (var thread in _threads)
        {
            thread.Start();
        }
    }

    public void Dispose()
    {
        _stop = true;
        foreach (var thread in _threads)
        {
            thread.Join();
        }
    }
}
