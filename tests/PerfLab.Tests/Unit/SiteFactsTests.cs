using System.Text.Json.Nodes;
using PerfLab.Contract;
using PerfLab.Course.Site;
using PerfLab.Results;
using PerfLab.Tests.Support;
using PerfLab.Views.Json;

namespace PerfLab.Tests.Unit;

/// <summary>What the course site's header says of the reference run: machine, mode, when and runtimes.</summary>
public class SiteFactsTests
{
    private static JsonNode Entry(string suite, DateTimeOffset startedAt, string? processor)
    {
        var run = Fake.Run(BenchmarkMode.Full, Fake.Outcome("net9.0", "9.0.20", Fake.Case("Sum", 20, 0)), Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 5, 0)));
        run = run with { StartedAt = startedAt, Machine = run.Machine with { Processor = processor } };
        return new JsonObject { ["suite"] = suite, ["code"] = new string('c', 64), ["run"] = JsonNode.Parse(ResultJson.Serialize(run)) };
    }

    private static string Document(params JsonNode[] runs) => new JsonObject
    {
        ["schema"] = "perflab-reference/1",
        ["created"] = "2026-11-28T08:40:42.0067225+00:00",
        ["mode"] = "full",
        ["machine"] = JsonNode.Parse("""{ "name": "box", "platform": "linux-x64", "os": "Debian GNU/Linux 12 (bookworm)", "processor": "A CPU", "logicalCores": 2, "memoryBytes": 1073741824, "sdk": "10.0.401", "runner": null }"""),
        ["runs"] = new JsonArray(runs),
    }.ToJsonString();

    [Fact]
    public void The_header_names_the_machines_processor_cores_and_OS_the_mode_the_days_and_the_runtimes()
    {
        using var folder = new TempFolder();
        var file = folder.Write("box.json", Document(Entry("a.ipynb", new(2026, 11, 24, 9, 0, 0, TimeSpan.Zero), null), Entry("b.ipynb", new(2026, 11, 26, 9, 0, 0, TimeSpan.Zero), "A CPU")));

        var facts = ReferenceFacts.Of(ReferenceDocument.Read(file), file);

        Assert.Equal("A CPU, 2 logical cores, Debian GNU/Linux 12 (bookworm)", facts.Machine);
        Assert.Equal(("full", "2026-11-24 to 2026-11-26", ".NET 9.0.20, .NET 10.0.12"), (facts.Mode, facts.When, facts.Runtimes));
    }

    [Fact]
    public void A_file_whose_runs_ran_on_two_processors_counts_the_runs_of_each()
    {
        using var folder = new TempFolder();
        var day = new DateTimeOffset(2026, 11, 28, 9, 0, 0, TimeSpan.Zero);
        var file = folder.Write("box.json", Document(Entry("a.ipynb", day, null), Entry("b.ipynb", day, "B CPU"), Entry("c.ipynb", day, null)));

        var facts = ReferenceFacts.Of(ReferenceDocument.Read(file), file);

        Assert.Equal("A CPU (2 runs) and B CPU (1 run), 2 logical cores, Debian GNU/Linux 12 (bookworm)", facts.Machine);
        Assert.Equal("2026-11-28", facts.When);
    }

    [Fact]
    public void The_committed_reference_file_gives_the_header_the_site_shows()
    {
        var file = RepoFiles.Path("data/reference/machines/course-machine-linux-x64.json");

        var facts = ReferenceFacts.Of(ReferenceDocument.Read(file), file);

        Assert.Equal("AMD EPYC (74 runs) and Intel(R) Xeon(R) Processor (14 runs), 2 logical cores, Debian GNU/Linux 12 (bookworm)", facts.Machine);
        Assert.Equal(("full", ".NET 8.0.31, .NET 9.0.20, .NET 10.0.12"), (facts.Mode, facts.Runtimes));
    }
}
