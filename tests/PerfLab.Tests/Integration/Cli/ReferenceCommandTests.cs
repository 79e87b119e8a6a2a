using System.Text.Json;
using PerfLab.Course;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>`perflab reference`, as a process: the reference job for real (the suite and a notebook), --only-missing, a job that fails half way, and a bad name.</summary>
[Collection(BusyCliRuns.Name)]
public class ReferenceCommandTests
{
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
        var notebook = output.Write("cells.ipynb", TestNotebooks.Json(TestNotebooks.Usings, TestNotebooks.BenchmarkCell("First", 1)));
        string[] job = ["reference", "--out", output.Path, "--mode", "smoke", "--name", "box", "--no-suite", "--notebooks", notebook];
        var first = await CliProcess.RunAsync(job, TestHome.Environment, TimeSpan.FromMinutes(10));
        Assert.True(first.ExitCode == 0, first.ToString());
        var file = Path.Combine(output.Path, "box.json");
        var before = JsonDocument.Parse(File.ReadAllText(file)).RootElement.GetProperty("runs")[0].GetRawText();

        // The first cell unchanged, a second one added: only the second is measured.
        output.Write("cells.ipynb", TestNotebooks.Json(TestNotebooks.Usings, TestNotebooks.BenchmarkCell("First", 1), TestNotebooks.BenchmarkCell("Second", 2)));
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
        var first = output.Write("a-first.ipynb", TestNotebooks.Json(TestNotebooks.Usings, TestNotebooks.BenchmarkCell("First", 1)));
        var second = output.Write("b-second.ipynb", TestNotebooks.Json("throw new InvalidOperationException(\"the second notebook breaks\");"));

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
        output.Write("a-first.ipynb", TestNotebooks.Json(TestNotebooks.Usings, TestNotebooks.BenchmarkCell("First", 1), TestNotebooks.BenchmarkCell("Third", 3)));
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
