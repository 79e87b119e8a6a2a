using System.Text.Json;
using PerfLab.Course;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab setup`, `prefetch` and `reference` as processes: bad input, and the reference job for real.</summary>
[Collection(BusyCliRuns.Name)]
public class SetupCommandTests
{
    private const string Usings = "using BenchmarkDotNet.Attributes;\nusing PerfLab.Notebooks;";

    // A benchmark cell measuring a class of its own, on .NET 10 only.
    private static string Cell(string type, int value) => $$"""
        public class {{type}}
        {
            [Benchmark] public int Value() => {{value}} + Environment.ProcessorCount;
        }

        await Lab.RunAsync<{{type}}>(runtimes: ["net10.0"])
        """;

    private static string Notebook(params string[] cells) => new System.Text.Json.Nodes.JsonObject
    {
        ["nbformat"] = 4,
        ["nbformat_minor"] = 5,
        ["metadata"] = new System.Text.Json.Nodes.JsonObject(),
        ["cells"] = new System.Text.Json.Nodes.JsonArray(cells.Select(c => (System.Text.Json.Nodes.JsonNode)new System.Text.Json.Nodes.JsonObject
        {
            ["cell_type"] = "code", ["metadata"] = new System.Text.Json.Nodes.JsonObject(), ["source"] = c, ["outputs"] = new System.Text.Json.Nodes.JsonArray(), ["execution_count"] = null,
        }).ToArray()),
    }.ToJsonString();

    [Fact]
    public async Task Setup_from_a_folder_that_is_not_a_kit_says_how_to_make_one_and_provisions_nothing()
    {
        using var home = new TempFolder();
        var notAKit = Directory.CreateDirectory(Path.Combine(home.Path, "usb-stick")).FullName;

        var result = await CliProcess.RunAsync(["setup", "--from", notAKit, "--no-kernel"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"error: {notAKit} is not an offline kit: it has no perflab-kit.json.", result.Error, StringComparison.Ordinal);
        Assert.Contains("prefetch --out KIT", result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(home.Path, "dotnet")), "Nothing should be provisioned from a folder that is not a kit.");
    }

    [Fact]
    public async Task Setup_from_a_kit_made_for_other_platforms_names_both_and_the_prefetch_that_fits()
    {
        using var home = new TempFolder();
        var kit = Path.Combine(home.Path, "kit");
        Directory.CreateDirectory(Path.Combine(kit, "packages"));
        var otherPlatform = OperatingSystem.IsWindows() ? "linux-arm64" : "win-arm64";
        home.Write("kit/perflab-kit.json", $$"""
            { "format": 1, "created": "2026-11-23T00:00:00+00:00", "sdkVersion": "10.0.100", "platforms": ["{{otherPlatform}}"],
              "runtimes": [{{string.Join(", ", RuntimeCatalog.All.Select(r => $"\"{r.Version}\""))}}], "packageCount": 0, "packageBytes": 0, "courseCommit": null }
            """);

        var result = await CliProcess.RunAsync(["setup", "--from", kit, "--no-kernel"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"was made for {otherPlatform}; this machine is", result.Error, StringComparison.Ordinal);
        Assert.Contains("--platform all", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Setup_from_a_damaged_manifest_says_so()
    {
        using var home = new TempFolder();
        var manifest = home.Write("kit/perflab-kit.json", "{ \"format\": 1, \"platforms\": [");

        var result = await CliProcess.RunAsync(["setup", "--from", Path.GetDirectoryName(manifest)!, "--no-kernel"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"error: {manifest} is damaged", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Prefetch_refuses_an_unknown_platform_before_writing_anything()
    {
        using var home = new TempFolder();
        var kit = Path.Combine(home.Path, "kit");

        var result = await CliProcess.RunAsync(["prefetch", "--out", kit, "--platform", "linux-x64", "amiga-68k"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path });

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains("error: Unknown platform 'amiga-68k'.", result.Error, StringComparison.Ordinal);
        Assert.Contains("linux-x64, linux-arm64, osx-x64, osx-arm64, win-x64, win-arm64, or all", result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(kit), "No kit folder should be made for a bad platform.");
    }

    [Fact]
    // linux-x64 and win-x64: the only platforms whose .NET 8 and 9 packs this machine's registry holds.
    public async Task Prefetch_for_another_platform_adds_its_runtime_and_apphost_packs_and_a_course_bundle()
    {
        using var home = new TempFolder();
        var kit = Path.Combine(home.Path, "kit");

        var result = await CliProcess.RunAsync(["prefetch", "--out", kit, "--platform", "linux-x64,win-x64"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path }, TimeSpan.FromMinutes(10));

        Assert.True(result.ExitCode == 0, result.ToString());
        var packages = Directory.GetFiles(Path.Combine(kit, "packages"), "*.nupkg").Select(Path.GetFileName).ToHashSet();
        foreach (var platform in new[] { "linux-x64", "win-x64" })
        {
            foreach (var version in RuntimeCatalog.All.Select(r => r.Version))
            {
                Assert.True(packages.Contains($"microsoft.netcore.app.runtime.{platform}.{version}.nupkg"), $"No {platform} runtime pack {version} in the kit:\n{string.Join("\n", packages.Order())}");
            }
        }

        Assert.Contains("benchmarkdotnet.0.15.8.nupkg", packages);
        // The apphost pack the .NET 8 host build uses, for Windows too (only linux-x64's is in the restore here).
        Assert.Contains(packages, p => p!.StartsWith("microsoft.netcore.app.host.win-x64.8.0.", StringComparison.Ordinal));
        using var manifest = JsonDocument.Parse(File.ReadAllText(Path.Combine(kit, "perflab-kit.json")));
        Assert.Equal(packages.Count, manifest.RootElement.GetProperty("packageCount").GetInt32());
        Assert.Equal(["linux-x64", "win-x64"], manifest.RootElement.GetProperty("platforms").EnumerateArray().Select(p => p.GetString()));
        Assert.True(File.Exists(Path.Combine(kit, "course.bundle")), result.ToString());

        // Again: nothing is copied or downloaded twice.
        var again = await CliProcess.RunAsync(["prefetch", "--out", kit, "--platform", "linux-x64,win-x64"], new Dictionary<string, string> { ["PERFLAB_HOME"] = home.Path }, TimeSpan.FromMinutes(10));
        Assert.True(again.ExitCode == 0, again.ToString());
        Assert.Contains("copied 0 from the NuGet cache; 0 to download", again.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Reference_runs_the_suite_and_a_notebooks_benchmarks_fresh_and_writes_one_file_with_the_machine_and_every_case()
    {
        using var output = new TempFolder();
        var notebook = RepoFiles.Path($"{CourseRepository.NotebooksFolder}/jit/02-stack-allocation.ipynb");

        var result = await CliProcess.RunAsync(["reference", "--out", output.Path, "--mode", "smoke", "--name", "test-machine", "--notebooks", notebook], TestHome.Environment, TimeSpan.FromMinutes(10));

        Assert.True(result.ExitCode == 0, result.ToString());
        var file = Path.Combine(output.Path, "test-machine.json");
        Assert.Contains($"Reference results: {file}", result.Output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(File.ReadAllText(file));
        var root = document.RootElement;
        Assert.Equal("perflab-reference/1", root.GetProperty("schema").GetString());
        Assert.Equal("smoke", root.GetProperty("mode").GetString());
        var machine = root.GetProperty("machine");
        Assert.Equal("test-machine", machine.GetProperty("name").GetString());
        Assert.Equal(Environment.ProcessorCount, machine.GetProperty("logicalCores").GetInt32());
        Assert.False(string.IsNullOrWhiteSpace(machine.GetProperty("processor").GetString()), root.ToString());
        Assert.StartsWith("10.", machine.GetProperty("sdk").GetString(), StringComparison.Ordinal);
        var runs = root.GetProperty("runs").EnumerateArray().ToArray();
        Assert.Equal("data/reference/suite/RuntimeDifferences.cs", runs[0].GetProperty("suite").GetString());

        // Shared across machines: no path of this one.
        Assert.Equal("data/reference/suite/RuntimeDifferences.cs", runs[0].GetProperty("run").GetProperty("source").GetString());
        var suiteResults = runs[0].GetProperty("run").GetProperty("results").EnumerateArray().ToArray();

        // Every [Benchmark] of the suite on every pinned runtime, none from the cache.
        Assert.Equal(4 * 3, suiteResults.Length);

        // Then every benchmark cell of the notebook, in cell order, fresh, each naming its cell.
        var fromNotebook = runs.Skip(1).ToArray();
        Assert.True(fromNotebook.Length >= 5, root.ToString());
        Assert.All(fromNotebook, r => Assert.Equal("notebooks/jit/02-stack-allocation.ipynb", r.GetProperty("suite").GetString()));
        Assert.All(fromNotebook, r => Assert.StartsWith("notebooks/jit/02-stack-allocation.ipynb, cell ", r.GetProperty("run").GetProperty("source").GetString(), StringComparison.Ordinal));
        var results = runs.SelectMany(r => r.GetProperty("run").GetProperty("results").EnumerateArray()).ToArray();
        Assert.All(results, r => Assert.True(r.GetProperty("error").ValueKind == JsonValueKind.Null && !r.GetProperty("cached").GetBoolean(), r.ToString()));
        var figures = results.Where(r => r.GetProperty("published").ValueKind == JsonValueKind.Object).Select(r => r.GetProperty("published").GetProperty("id").GetString()).ToHashSet();
        Assert.Superset(new HashSet<string?> { "N10-J02", "N10-J03", "N10-J20", "N9-J25", "N9-J26" }, figures);

        // The exercise's unsolved code (class Segment) is the reader's to replace: not a reference result.
        Assert.DoesNotContain(results, r => r.GetProperty("type").GetString() == "Segment");
    }

    [Fact]
    public async Task Reference_only_missing_measures_the_cell_the_file_has_no_run_of_and_keeps_the_rest_as_they_were()
    {
        using var output = new TempFolder();
        var notebook = output.Write("cells.ipynb", Notebook(Usings, Cell("First", 1)));
        string[] job = ["reference", "--out", output.Path, "--mode", "smoke", "--name", "box", "--no-suite", "--notebooks", notebook];
        var first = await CliProcess.RunAsync(job, TestHome.Environment, TimeSpan.FromMinutes(10));
        Assert.True(first.ExitCode == 0, first.ToString());
        var file = Path.Combine(output.Path, "box.json");
        var before = JsonDocument.Parse(File.ReadAllText(file)).RootElement.GetProperty("runs")[0].GetRawText();

        // The first cell unchanged, a second one added: only the second is measured.
        output.Write("cells.ipynb", Notebook(Usings, Cell("First", 1), Cell("Second", 2)));
        var again = await CliProcess.RunAsync([.. job, "--only-missing"], TestHome.Environment, TimeSpan.FromMinutes(10));

        Assert.True(again.ExitCode == 0, again.ToString());
        Assert.Contains("--only-missing: 1 benchmark runs were in the file already and kept; 1 measured and added.", again.Output, StringComparison.Ordinal);
        var runs = JsonDocument.Parse(File.ReadAllText(file)).RootElement.GetProperty("runs").EnumerateArray().ToArray();
        Assert.Equal(2, runs.Length);
        Assert.Equal(before, runs[0].GetRawText());
        Assert.Equal("Second", runs[1].GetProperty("run").GetProperty("results")[0].GetProperty("type").GetString());
        Assert.NotEqual(runs[0].GetProperty("code").GetString(), runs[1].GetProperty("code").GetString());
    }

    [Fact]
    public async Task Reference_writes_its_file_after_each_notebook_so_a_job_that_fails_later_keeps_what_it_measured()
    {
        using var output = new TempFolder();
        var first = output.Write("a-first.ipynb", Notebook(Usings, Cell("First", 1)));
        var second = output.Write("b-second.ipynb", Notebook("throw new InvalidOperationException(\"the second notebook breaks\");"));

        var result = await CliProcess.RunAsync(["reference", "--out", output.Path, "--mode", "smoke", "--name", "box", "--no-suite", "--notebooks", first, second], TestHome.Environment, TimeSpan.FromMinutes(10));

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains("the second notebook breaks", result.Error, StringComparison.Ordinal);
        var file = Path.Combine(output.Path, "box.json");
        Assert.Contains($"  written: {file} (this job's 1 run so far)", result.Error, StringComparison.Ordinal);
        Assert.True(File.Exists(file), result.ToString());
        var runs = JsonDocument.Parse(File.ReadAllText(file)).RootElement.GetProperty("runs").EnumerateArray().ToArray();
        var run = Assert.Single(runs);
        Assert.Equal("First", run.GetProperty("run").GetProperty("results")[0].GetProperty("type").GetString());

        // Continued with --only-missing after a cell was added, and failing again: the file gains the new cell's run once and keeps the first byte for byte.
        output.Write("a-first.ipynb", Notebook(Usings, Cell("First", 1), Cell("Third", 3)));
        var again = await CliProcess.RunAsync(["reference", "--out", output.Path, "--mode", "smoke", "--name", "box", "--no-suite", "--only-missing", "--notebooks", first, second], TestHome.Environment, TimeSpan.FromMinutes(10));

        Assert.True(again.ExitCode == 1, again.ToString());
        var after = JsonDocument.Parse(File.ReadAllText(file)).RootElement.GetProperty("runs").EnumerateArray().ToArray();
        Assert.Equal(["First", "Third"], after.Select(r => r.GetProperty("run").GetProperty("results")[0].GetProperty("type").GetString()));
        Assert.Equal(run.GetRawText(), after[0].GetRawText());
    }

    [Fact]
    public async Task Reference_refuses_a_name_that_cannot_be_a_file_name()
    {
        using var output = new TempFolder();

        var result = await CliProcess.RunAsync(["reference", "--out", output.Path, "--mode", "smoke", "--name", "../escape"], TestHome.Environment);

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains("error: '../escape' cannot be a file name here.", result.Error, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(output.Path));
    }
}
