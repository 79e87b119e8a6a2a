// Measures the course's C# Jupyter kernel through a real Jupyter client (Debian's jupyter_client),
// against its targets: kernel start to first cell result under 3 s warm, and an unchanged
// benchmark cell re-run (a cache hit) under 0.5 s. Also times the setup cell and a first benchmark
// cell (quick mode, .NET 8/9/10), and `perflab run` of notebooks/00-start-here.ipynb in smoke mode.
//
// Usage (from the repository root): dotnet run bench/kernel/measure.cs -- [--reps N] [--out FILE.md]
// Needs python3-jupyter-client (`.ci/run` installs it). About 2 minutes with 5 repetitions.
#:project ../Shared
using System.Globalization;
using System.Text;
using System.Text.Json;
using PerfLab.Course;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/kernel/measure.cs", 5) is not { } options)
{
    return 2;
}

var reps = options.Repetitions;
var outPath = options.OutPath;

var repo = FindRepo();
var work = Directory.CreateTempSubdirectory("perflab-kernel-measure-").FullName;
var env = new Dictionary<string, string>
{
    ["PERFLAB_HOME"] = Path.Combine(work, "home"),
    ["JUPYTER_DATA_DIR"] = Path.Combine(work, "jupyter"),
    ["PERFLAB_MODE"] = "quick",
};

Log("building the CLI (the kernel runs from its output, as `perflab kernel install` sets it up)");
var cliDll = BuildCli(repo, "Debug");
Run("dotnet", [cliDll, "kernel", "install"], repo, env, mustSucceed: true);
Log("provisioning runtimes into a fresh home");
Run("dotnet", [cliDll, "runtimes", "--provision"], repo, env, mustSucceed: true);

var notebooks = CourseRepository.PathOf(CourseRepository.NotebooksFolder, repo);
var setupFile = Path.Combine(work, "setup.csx");
File.WriteAllText(setupFile, SetupCellText());

var samples = new List<Dictionary<string, double>>();
for (var rep = 0; rep <= reps; rep++)
{
    // Repetition 0 warms the disk cache and the NuGet-provisioned runtimes; it is not counted.
    Log(rep == 0 ? "warm-up repetition" : $"repetition {rep}/{reps}");
    var run = Run("/usr/bin/python3", [Path.Combine(repo, "bench", "kernel", "kernel_timing.py"), notebooks, setupFile], repo, env, mustSucceed: true);
    using var json = JsonDocument.Parse(run.StandardOutput.Trim().Split('\n')[^1]);
    if (json.RootElement.GetProperty("errors").GetArrayLength() > 0)
    {
        throw new InvalidOperationException("a cell failed: " + json.RootElement.GetProperty("errors"));
    }

    if (rep > 0)
    {
        samples.Add(json.RootElement.EnumerateObject().Where(p => p.Value.ValueKind == JsonValueKind.Number).ToDictionary(p => p.Name, p => p.Value.GetDouble()));
    }

    // A new home each time would re-provision; a new source would miss the cache: clear only results,
    // so each repetition's first benchmark run measures for real and the second is the cache hit.
    var results = Path.Combine(env["PERFLAB_HOME"], "results");
    if (Directory.Exists(results))
    {
        Directory.Delete(results, recursive: true);
    }
}

Log("perflab run notebooks/00-start-here.ipynb --mode smoke");
var smoke = Run("dotnet", [cliDll, "run", Path.Combine(notebooks, "00-start-here.ipynb"), "--mode", "smoke", "--out", Path.Combine(work, "reports")], repo, env, mustSucceed: true);

var report = new StringBuilder();
report.AppendLine(CultureInfo.InvariantCulture, $"## Kernel (bench/kernel/measure.cs, {DateTime.UtcNow:yyyy-MM-dd}, {Environment.ProcessorCount} cores, median of {reps})");
report.AppendLine();
report.AppendLine("| Step | Median (s) | Min (s) | Max (s) | Target (s) | Median / target |");
report.AppendLine("|---|---:|---:|---:|---:|---:|");
void Row(string name, string key, double? target)
{
    var values = samples.Select(s => s[key]).Order().ToArray();
    var median = values[values.Length / 2];
    report.AppendLine(CultureInfo.InvariantCulture, $"| {name} | {median:F2} | {values[0]:F2} | {values[^1]:F2} | {(target is null ? "—" : target.Value.ToString("F1", CultureInfo.InvariantCulture))} | {(target is null ? "—" : (median / target.Value).ToString("F2", CultureInfo.InvariantCulture))} |");
}

Row("kernel start to ready (kernel_info answered)", "ready", null);
Row("kernel start to first cell result (`1 + 1`)", "first_result", 3.0);
Row("setup cell", "setup_cell", null);
Row("first benchmark cell, quick mode, 8/9/10 (measures)", "benchmark_first", null);
Row("same benchmark cell again (cache hit)", "benchmark_cached", 0.5);
report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"`perflab run notebooks/00-start-here.ipynb --mode smoke`: {smoke.Seconds:F1} s wall.");
Console.WriteLine(report);
if (outPath is not null)
{
    File.WriteAllText(outPath, report.ToString());
}

Directory.Delete(work, recursive: true);
return 0;

static string SetupCellText()
{
    // The setup cell as notebooks/00-start-here.ipynb has it (one folder below the root).
    const string folder = "../helpers/PerfLab.Notebooks/bin/lab";
    return "#r \"" + folder + "/BenchmarkDotNet.Annotations.dll\"\n#r \"" + folder + "/PerfLab.Notebooks.dll\"\nusing BenchmarkDotNet.Attributes;\nusing PerfLab.Notebooks;\nLab.Setup()";
}

