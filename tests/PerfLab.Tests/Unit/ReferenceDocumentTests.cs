using System.Text.Json.Nodes;
using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Tests.Support;
using PerfLab.Views.Json;

namespace PerfLab.Tests.Unit;

/// <summary>The reference machine document: its one reader, and its writer keeping what it read.</summary>
public class ReferenceDocumentTests
{
    private static readonly string CourseFile = RepoFiles.Path("data/reference/machines/course-machine-linux-x64.json");

    private static string Document(string schema = ReferenceDocument.Schema, string runs = "[]") => $$"""
        {
          "schema": "{{schema}}", "created": "2026-11-28T08:40:42.0067225\u002B00:00", "mode": "full",
          "machine": { "name": "box", "platform": "linux-x64", "os": "Linux", "processor": "A CPU", "logicalCores": 2, "memoryBytes": 1024, "sdk": "10.0.401", "runner": null },
          "runs": {{runs}}
        }
        """;

    [Fact]
    public void A_document_reads_its_date_mode_machine_and_runs_in_the_files_order()
    {
        using var folder = new TempFolder();
        var run = Fake.Run(BenchmarkMode.Full, Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 5, 0)));
        var file = folder.Write("box.json", Document(runs: $$"""
            [ { "suite": "notebooks/a.ipynb", "code": "key-a", "run": {{ResultJson.Serialize(run)}} },
              { "suite": "notebooks/b.ipynb", "code": null, "run": {{ResultJson.Serialize(run)}} } ]
            """));

        var document = ReferenceDocument.Read(file);

        Assert.Equal(new DateTimeOffset(2026, 11, 28, 8, 40, 42, TimeSpan.Zero).AddTicks(67225), document.Created);
        Assert.Equal("full", document.Mode);
        Assert.Equal(new MachineDescription("box", "linux-x64", "Linux", "A CPU", 2, 1024, "10.0.401", null), document.Machine);
        Assert.Equal([("notebooks/a.ipynb", "key-a"), ("notebooks/b.ipynb", null)], document.Runs.Select(r => (r.Suite, r.Code)));
        Assert.Equal(5, document.Runs[0].Run.Results[0].Statistics!.Mean);
    }

    [Fact]
    public void The_machine_names_its_processor_cores_and_what_the_reader_needs_beside_in_one_line()
    {
        var machine = new MachineDescription("box", "linux-x64", "Linux", "A CPU", 2, 1024, "10.0.401", null);

        Assert.Equal("A CPU, 2 logical cores, full mode", machine.Describe("full mode"));
        Assert.Equal("B CPU, 2 logical cores, Linux", machine.Describe(machine.Os, "B CPU"));
    }

    [Fact]
    public void A_document_of_another_schema_is_refused_naming_both_schemas_and_what_to_do()
    {
        using var folder = new TempFolder();
        var file = folder.Write("old.json", Document(schema: "perflab-reference/0"));

        var refused = Assert.Throws<PerfLabException>(() => ReferenceDocument.Read(file));

        Assert.Equal($"{file} declares schema perflab-reference/0; this PerfLab reads perflab-reference/1.", refused.Message);
        Assert.Equal("Run `perflab reference` again to write it anew.", refused.Fix);
    }

    [Fact]
    public void A_torn_file_a_missing_one_and_a_run_that_is_no_run_are_each_refused_with_where_and_what_to_do()
    {
        using var folder = new TempFolder();
        var torn = folder.Write("torn.json", "{\"schema\": ");
        var missing = Path.Combine(folder.Path, "none.json");
        var noRun = folder.Write("norun.json", Document(runs: """[ { "suite": "a.ipynb", "run": { "schemaVersion": 7 } } ]"""));
        var noMachine = folder.Write("nomachine.json", Document().Replace("\"machine\"", "\"host\"", StringComparison.Ordinal));

        foreach (var file in new[] { torn, missing, noRun, noMachine })
        {
            var refused = Assert.Throws<PerfLabException>(() => ReferenceDocument.Read(file, "data/reference/machines/" + Path.GetFileName(file)));

            Assert.StartsWith($"Cannot read data/reference/machines/{Path.GetFileName(file)}: ", refused.Message, StringComparison.Ordinal);
            Assert.Equal("Restore it from git, or run `perflab reference` again to write it anew.", refused.Fix);
        }
    }

    [Fact]
    public void The_committed_reference_file_written_again_keeps_its_content_and_its_bytes()
    {
        using var folder = new TempFolder();
        var text = File.ReadAllText(CourseFile);

        var again = folder.Write("again.json", ResultJson.Serialize(ReferenceDocument.Read(CourseFile)));

        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(text), JsonNode.Parse(File.ReadAllText(again))), "the document read and written again differs from the file");
        Assert.Equal(text, File.ReadAllText(again));
    }

    [Fact]
    public void A_run_not_read_from_a_file_is_written_as_a_run_is_and_reads_back_equal()
    {
        using var folder = new TempFolder();
        var run = Fake.Run(BenchmarkMode.Full, Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 5, 0)));
        var document = new ReferenceDocument(new DateTimeOffset(2026, 11, 28, 9, 0, 0, TimeSpan.Zero), "full", new MachineDescription("box", "linux-x64", "Linux", "A CPU", 2, 1024, "10.0.401", null), [new RecordedRun("a.ipynb", "key", run)]);

        var file = folder.Write("box.json", ResultJson.Serialize(document));

        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(ResultJson.Serialize(run)), JsonNode.Parse(File.ReadAllText(file))!["runs"]![0]!["run"]), "the run is not written as ResultJson writes a run");
        var read = ReferenceDocument.Read(file);
        Assert.Equal((document.Created, document.Mode, document.Machine), (read.Created, read.Mode, read.Machine));
        Assert.Equal(ResultJson.Serialize(run), ResultJson.Serialize(read.Runs[0].Run));
    }
}
