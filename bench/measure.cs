// Measures PerfLab itself, side by side in one run on this machine:
//   (a) the posts' route: a BenchmarkDotNet console project, `dotnet run -c Release -f net8.0 --
//       --filter * --runtimes net8.0 net9.0 net10.0 --job short`
//   (b) `perflab bench` in quick mode on the same class and runtimes: first run of a new source (cold),
//       the same source again with --force (warm), a cache hit, and through `dotnet run --project`.
// Each reports its wall time beyond its measurement (a: BenchmarkDotNet's "Run time"; b: the benchmark
// processes' time from the JSON), and the ratio. (Quick against full mode: bench/honesty/measure.cs.)
//
// Usage (from the repository root): dotnet run bench/measure.cs -- [--reps N] [--out FILE.md]
// Takes about 8 minutes with the defaults (3 repetitions).
#:project Shared
using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using PerfLab.Bench;
using PerfLab.Course;
using static PerfLab.Bench.BenchTools;

if (ParseArguments(args, "bench/measure.cs", 3) is not { } options)
{
    return 2;
}

var reps = options.Repetitions;
var outPath = options.OutPath;

var repo = FindRepo();
var work = Directory.CreateTempSubdirectory("perflab-measure-").FullName;
var home = Path.Combine(work, "home");
var perflabEnv = new Dictionary<string, string> { ["PERFLAB_HOME"] = home };
var report = new StringBuilder();

Log("building PerfLab (Release)");
var cliDll = BuildCli(repo, "Release");

// First ever run in an empty home: provisions .NET 8 and 9 (from the NuGet cache when it holds the packs).
Log("fresh home: perflab runtimes --provision");
var provision = Run("dotnet", [cliDll, "runtimes", "--provision"], repo, perflabEnv, mustSucceed: true);

// The posts' route needs the three runtimes next to the SDK: a combined dotnet root of links.
var combinedRoot = CombinedDotnetRoot(work, Path.Combine(home, "dotnet"));
var postsProject = WritePostsProject(Path.Combine(work, "posts"));

var rows = new List<(string Route, double Wall, double Measure)>();
for (var rep = 1; rep <= reps; rep++)
{
    Log($"repetition {rep}/{reps}: posts' route");
    var posts = Run(Path.Combine(combinedRoot, "dotnet"), ["run", "-c", "Release", "-f", "net8.0", "--", "--filter", "*", "--runtimes", "net8.0", "net9.0", "net10.0", "--job", "short"], postsProject,
        CombinedRootEnvironment(combinedRoot), mustSucceed: true);
    var runTime = Regex.Match(posts.Output, @"Run time: [\d:]+ \((?<s>[\d.]+) sec\)");
    rows.Add(("(a) posts' route, --job short", posts.Seconds, runTime.Success ? double.Parse(runTime.Groups["s"].Value, CultureInfo.InvariantCulture) : double.NaN));

    // A new source each repetition: the cold path compiles it.
    var source = Path.Combine(work, $"probe{rep}.cs");
    File.WriteAllText(source, Inputs.ProbeSource.Replace("// marker", $"// repetition {rep} {Guid.NewGuid()}", StringComparison.Ordinal));
    var json = Path.Combine(work, $"probe{rep}.json");
    string[] bench = ["bench", source, "--mode", "quick", "--json", json];

    Log($"repetition {rep}/{reps}: perflab cold (new source)");
    rows.Add(PerfLab("(b) perflab quick, new source", Run("dotnet", [cliDll, .. bench], repo, perflabEnv, mustSucceed: true), json));
    Log($"repetition {rep}/{reps}: perflab warm (--force)");
    rows.Add(PerfLab("(b) perflab quick, same source, --force", Run("dotnet", [cliDll, .. bench, "--force"], repo, perflabEnv, mustSucceed: true), json));
    Log($"repetition {rep}/{reps}: perflab cache hit");
    rows.Add(PerfLab("(b) perflab, cache hit", Run("dotnet", [cliDll, .. bench], repo, perflabEnv, mustSucceed: true), json));
    Log($"repetition {rep}/{reps}: perflab through dotnet run --project (--force)");
    rows.Add(PerfLab("(b) `dotnet run --project` perflab, --force", Run("dotnet", ["run", "--project", CourseRepository.PathOf(CourseRepository.CliProject, repo), "-c", "Release", "--", .. bench, "--force"], repo, perflabEnv, mustSucceed: true), json));
}

report.AppendLine(CultureInfo.InvariantCulture, $"Measured {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC on {Environment.ProcessorCount} cores, {System.Runtime.InteropServices.RuntimeInformation.OSDescription}; median of {reps} repetitions; one trivial benchmark on net8.0, net9.0 and net10.0.");
report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"First run in an empty PERFLAB_HOME (`perflab runtimes --provision`, packs already in the NuGet cache): {provision.Seconds:F1} s.");
report.AppendLine();
report.AppendLine("| Route | Wall (s) | Measurement (s) | Overhead (s) | Overhead vs posts' route |");
report.AppendLine("|---|---:|---:|---:|---:|");
var postsOverhead = Median(rows.Where(r => r.Route.StartsWith("(a)", StringComparison.Ordinal)).Select(r => r.Wall - r.Measure));
foreach (var group in rows.GroupBy(r => r.Route))
{
    var wall = Median(group.Select(r => r.Wall));
    var measure = Median(group.Select(r => r.Measure));
    var overhead = Median(group.Select(r => r.Wall - r.Measure));
    report.AppendLine(CultureInfo.InvariantCulture, $"| {group.Key} | {wall:F1} | {measure:F1} | {overhead:F1} | {overhead / postsOverhead:F3} |");
}

// Asm of one method on three runtimes, warm (source compiled, runtimes provisioned); --force, or every
// repetition would time the listing cache instead of a capture.
var asmSeconds = new List<double>();
var arraySum = CourseRepository.PathOf($"{CourseRepository.SamplesFolder}/ArraySum.cs", repo);
Run("dotnet", [cliDll, "asm", arraySum, "--method", "ForLoop"], repo, perflabEnv, mustSucceed: true);
for (var rep = 1; rep <= reps; rep++)
{
    Log($"asm {rep}/{reps}: perflab asm samples/ArraySum.cs --method ForLoop --force");
    asmSeconds.Add(Run("dotnet", [cliDll, "asm", arraySum, "--method", "ForLoop", "--force"], repo, perflabEnv, mustSucceed: true).Seconds);
}

report.AppendLine();
report.AppendLine(CultureInfo.InvariantCulture, $"`perflab asm samples/ArraySum.cs --method ForLoop` on net8.0, net9.0 and net10.0, warm: median {Median(asmSeconds):F1} s (min {asmSeconds.Min():F1}, max {asmSeconds.Max():F1}).");

// The --html page of 60 results (20 cases x 3 runtimes): its size, and Chromium's time to open and draw it.
var chromium = Environment.GetEnvironmentVariable("PERFLAB_CHROMIUM") ?? "/usr/bin/chromium";
if (File.Exists(chromium))
{
    Log("page: 20 cases x 3 runtimes, smoke mode, --html");
    var pagePath = Path.Combine(work, "twenty.html");
    Run("dotnet", [cliDll, "bench", Path.Combine(repo, "bench", "pages", "TwentyCases.cs"), "--mode", "smoke", "--html", pagePath], repo, perflabEnv, mustSucceed: true);
    var openSeconds = new List<double>();
    for (var rep = 1; rep <= reps; rep++)
    {
        var dom = Run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", $"--user-data-dir={Path.Combine(work, "chromium-" + rep)}", "--dump-dom", new Uri(pagePath).AbsoluteUri], repo, null, mustSucceed: true);
        if (!dom.Output.Contains("main-svg", StringComparison.Ordinal))
        {
            throw new InvalidOperationException("Chromium did not draw the charts of " + pagePath);
        }

        openSeconds.Add(dom.Seconds);
    }

    report.AppendLine();
    report.AppendLine(CultureInfo.InvariantCulture, $"`--html` page of 60 results (bench/pages/TwentyCases.cs on three runtimes): {new FileInfo(pagePath).Length / 1024.0 / 1024.0:F2} MB; headless Chromium from start to the drawn DOM (browser start included): median {Median(openSeconds):F2} s (min {openSeconds.Min():F2}, max {openSeconds.Max():F2}).");
}

Console.WriteLine();
Console.WriteLine(report);
if (outPath is not null)
{
    File.WriteAllText(outPath, report.ToString());
}

Directory.Delete(work, recursive: true);
return 0;

static (string, double, double) PerfLab(string route, RunResult run, string json)
{
    using var document = JsonDocument.Parse(File.ReadAllText(json));
    var measure = document.RootElement.GetProperty("timing").GetProperty("measure").GetDouble();
    return (route, run.Seconds, measure);
}

// The SDK plus all three runtimes in one root, as an SDK with .NET 8 and 9 installed would be.
static string CombinedDotnetRoot(string work, string privateRoot)
{
    var sdkRoot = Path.GetDirectoryName(Path.GetDirectoryName(Path.GetDirectoryName(System.Runtime.InteropServices.RuntimeEnvironment.GetRuntimeDirectory().TrimEnd('/')))!)!;
    var root = Path.Combine(work, "dotnet-all");
    Directory.CreateDirectory(Path.Combine(root, "shared", "Microsoft.NETCore.App"));
    File.Copy(Path.Combine(sdkRoot, "dotnet"), Path.Combine(root, "dotnet"));
    if (!OperatingSystem.IsWindows())
    {
        File.SetUnixFileMode(Path.Combine(root, "dotnet"), File.GetUnixFileMode(Path.Combine(sdkRoot, "dotnet")));
    }
    foreach (var entry in new[] { "host", "sdk", "sdk-manifests", "packs", "templates" })
    {
        if (Directory.Exists(Path.Combine(sdkRoot, entry)))
        {
            Directory.CreateSymbolicLink(Path.Combine(root, entry), Path.Combine(sdkRoot, entry));
        }
    }

    foreach (var source in new[] { sdkRoot, privateRoot })
    {
        foreach (var version in Directory.EnumerateDirectories(Path.Combine(source, "shared", "Microsoft.NETCore.App")))
        {
            var target = Path.Combine(root, "shared", "Microsoft.NETCore.App", Path.GetFileName(version));
            if (!Directory.Exists(target))
            {
                Directory.CreateSymbolicLink(target, version);
            }
        }
    }

    return root;
}

// `dotnet run` points DOTNET_ROOT at the SDK's real folder; the architecture-specific variable wins over it.
static Dictionary<string, string> CombinedRootEnvironment(string root) => new()
{
    ["DOTNET_ROOT"] = root,
    ["DOTNET_ROOT_" + System.Runtime.InteropServices.RuntimeInformation.OSArchitecture.ToString().ToUpperInvariant()] = root,
    ["PATH"] = root + Path.PathSeparator + Environment.GetEnvironmentVariable("PATH"),
};

static string WritePostsProject(string folder)
{
    Directory.CreateDirectory(folder);
    File.WriteAllText(Path.Combine(folder, "Posts.csproj"), """
        <Project Sdk="Microsoft.NET.Sdk">
          <PropertyGroup>
            <OutputType>Exe</OutputType>
            <TargetFrameworks>net8.0;net9.0;net10.0</TargetFrameworks>
            <ImplicitUsings>enable</ImplicitUsings>
            <Nullable>enable</Nullable>
            <ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>
          </PropertyGroup>
          <ItemGroup>
            <PackageReference Include="BenchmarkDotNet" Version="0.15.8" />
          </ItemGroup>
        </Project>
        """);
    File.WriteAllText(Path.Combine(folder, "Program.cs"), "using BenchmarkDotNet.Running;\nBenchmarkSwitcher.FromAssembly(typeof(Probe).Assembly).Run(args);\n");
    File.WriteAllText(Path.Combine(folder, "Probe.cs"), Inputs.ProbeSource.Replace("public class Probe", "[MemoryDiagnoser]\npublic class Probe", StringComparison.Ordinal));
    return folder;
}

internal static class Inputs
{
    // The same trivial class for both routes.
    public const string ProbeSource = """
        // marker
        using BenchmarkDotNet.Attributes;

        public class Probe
        {
            private readonly int[] _values = Enumerable.Range(0, 64).ToArray();

            [Benchmark]
            public int Sum()
            {
                var sum = 0;
                foreach (var value in _values)
                {
                    sum += value;
                }

                return sum;
            }
        }
        """;
}
