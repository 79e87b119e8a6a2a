// How long a notebook takes in quick mode, this build against another checkout, in one run, alternating: the
// figure issue "quick mode at half the cost" is judged by. Each repetition runs `perflab run NOTEBOOK --mode quick`
// with each build (their order swapped every repetition, so drift falls on both), each time in a fresh PerfLab home
// (no cached results, listings or compiled benchmarks) into which the shared home's dotnet/, provision/ and hosts/ are
// linked: the runtimes already provisioned and the hosts already precompiled, as a reader's second notebook finds them. It reports each run's wall time, the load average at its start, and the ratio of the
// medians.
//
// Usage (from the repository root):
//   dotnet run bench/notebook-time/measure.cs -- --other WORKTREE [--notebook PATH] [--reps N] [--out FILE.md]
// Defaults: notebooks/00-start-here.ipynb, 2 repetitions (about 12 minutes for notebook 00).
#:project ../Shared
using System.Diagnostics;
using System.Globalization;
using System.Text;
using PerfLab;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/notebook-time/measure.cs", 2, "--other WORKTREE", "--notebook PATH") is not { } options
    || OtherCheckout(options, "bench/notebook-time/measure.cs") is not { } otherRepo)
{
    return 2;
}

var repo = FindRepo();
var notebook = options.Values.GetValueOrDefault("--notebook") ?? Path.Combine("notebooks", "00-start-here.ipynb");
if (!File.Exists(Path.Combine(repo, notebook)) || !File.Exists(Path.Combine(otherRepo, notebook)))
{
    Console.Error.WriteLine($"bench/notebook-time/measure.cs: {notebook} must exist in both checkouts (a path relative to the repository root).");
    return 2;
}

var reps = options.Repetitions;
var outPath = options.OutPath;
var work = Directory.CreateTempSubdirectory("perflab-notebook-time-").FullName;
var shared = PerfLabHome.Default();

Log("building both CLIs (Release)");
var builds = new[] { ("this", repo, BuildCli(repo, "Release")), ("other", otherRepo, BuildCli(otherRepo, "Release")) };
foreach (var (_, _, cli) in builds)
{
    // Provisions the runtimes and precompiles each build's hosts (a build without precompiled hosts ignores hosts/).
    Run("dotnet", [cli, "runtimes", "--provision"]);
}

var seconds = builds.ToDictionary(b => b.Item1, _ => new List<(double Seconds, string Load)>());
for (var rep = 1; rep <= reps; rep++)
{
    foreach (var (name, checkout, cli) in rep % 2 == 1 ? builds : builds.Reverse())
    {
        var home = Path.Combine(work, $"home-{name}-{rep}");
        Directory.CreateDirectory(home);
        foreach (var kept in new[] { "dotnet", "provision", "hosts" })
        {
            if (Directory.Exists(Path.Combine(shared.Root, kept)))
            {
                Directory.CreateSymbolicLink(Path.Combine(home, kept), Path.Combine(shared.Root, kept));
            }
        }

        var load = LoadAverage();
        Log($"repetition {rep}/{reps}: {name} (load average {load})");
        var clock = Stopwatch.StartNew();
        Run("dotnet", [cli, "run", notebook, "--mode", "quick", "--out", Path.Combine(work, $"reports-{name}-{rep}")], checkout,
            new Dictionary<string, string> { ["PERFLAB_HOME"] = home });
        seconds[name].Add((clock.Elapsed.TotalSeconds, load));
    }
}

var report = new StringBuilder();
report.AppendLine(CultureInfo.InvariantCulture, $"### {notebook} in quick mode (bench/notebook-time/measure.cs, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, {reps} repetitions, alternating)");
report.AppendLine();
report.AppendLine("| Build | Wall time per run (s), load average at its start | Median (s) |");
report.AppendLine("|---|---|---:|");
foreach (var (name, runs) in seconds)
{
    report.AppendLine(CultureInfo.InvariantCulture,
        $"| {name} | {string.Join(", ", runs.Select(r => $"{r.Seconds:F0} ({r.Load})"))} | {Median(runs.Select(r => r.Seconds)):F0} |");
}

report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"This build takes {Median(seconds["this"].Select(r => r.Seconds)) / Median(seconds["other"].Select(r => r.Seconds)):F2} of the other's time (medians).");
Console.WriteLine(report);
if (outPath is not null)
{
    File.WriteAllText(outPath, report.ToString());
}

return 0;
