using System.Text.Json.Nodes;
using PerfLab.Contract;
using PerfLab.Course.Reference;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>`perflab reference --update`: a machine file gains the notebooks run again and keeps the rest.</summary>
public class ReferenceUpdateTests
{
    private static SuiteRun RunOf(string suite, double meanNs) =>
        new(suite, Fake.Run(BenchmarkMode.Smoke, Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", meanNs, 0))), $"code of {suite}");

    // One write of box.json, as the job makes after each suite file or notebook.
    private static async Task<string> WriteAsync(string folder, bool update, params SuiteRun[] runs)
    {
        var file = ReferenceFile.Open(folder, "box", BenchmarkMode.Smoke, update);
        await file.WriteAsync(runs, CancellationToken.None);
        return file.Path;
    }

    private static string[] SuitesAndMeans(string file) =>
        JsonNode.Parse(File.ReadAllText(file))!["runs"]!.AsArray()
            .Select(r => $"{(string?)r!["suite"]} {r["run"]!["results"]![0]!["statistics"]!["mean"]}").ToArray();

    [Fact]
    public async Task Update_replaces_the_runs_of_a_repeated_notebook_in_place_keeps_the_others_and_adds_new_ones_last()
    {
        using var folder = new TempFolder();
        await WriteAsync(folder.Path, update: false, RunOf("a.ipynb", 1), RunOf("b.ipynb", 2), RunOf("c.ipynb", 3));

        var file = await WriteAsync(folder.Path, update: true, RunOf("d.ipynb", 40), RunOf("b.ipynb", 20));

        Assert.Equal(["a.ipynb 1", "b.ipynb 20", "c.ipynb 3", "d.ipynb 40"], SuitesAndMeans(file));
        var codes = JsonNode.Parse(File.ReadAllText(file))!["runs"]!.AsArray().Select(r => (string)r!["code"]!).ToArray();
        Assert.Equal(["code of a.ipynb", "code of b.ipynb", "code of c.ipynb", "code of d.ipynb"], codes);
    }

    [Fact]
    public async Task Without_update_the_file_is_written_anew()
    {
        using var folder = new TempFolder();
        await WriteAsync(folder.Path, update: false, RunOf("a.ipynb", 1));

        var file = await WriteAsync(folder.Path, update: false, RunOf("b.ipynb", 2));

        Assert.Equal(["b.ipynb 2"], SuitesAndMeans(file));
    }

    [Fact]
    public async Task Update_refuses_a_file_of_another_mode_or_none_at_all_before_measuring()
    {
        using var folder = new TempFolder();
        var missing = Assert.Throws<PerfLabException>(() => ReferenceFile.Open(folder.Path, "box", BenchmarkMode.Full, update: true));
        await WriteAsync(folder.Path, update: false, RunOf("a.ipynb", 1));
        var otherMode = Assert.Throws<PerfLabException>(() => ReferenceFile.Open(folder.Path, "box", BenchmarkMode.Full, update: true));

        Assert.Contains("there is no", missing.Message, StringComparison.Ordinal);
        Assert.Contains("in smoke mode; this job writes perflab-reference/1 in full mode", otherMode.Message, StringComparison.Ordinal);
        Assert.Contains("one mode", otherMode.Fix, StringComparison.Ordinal);
    }
}
