using PerfLab.Course;
using PerfLab.Course.Reference;
using PerfLab.Course.Views;
using PerfLab.Results;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>`perflab fidelity`: the posts' ratios against the committed reference machines, in docs/fidelity.md.</summary>
public class FidelityReportTests
{
    [Fact]
    public void The_committed_report_is_what_the_committed_data_gives_and_the_measured_figures_agree()
    {
        var catalog = PublishedFigures.Load(RepoFiles.Path(CourseRepository.PublishedFolder), RepoFiles.Path(CourseRepository.OutlineFile));
        var (machines, problems) = ReferenceRuns.Load(RepoFiles.Path(CourseRepository.ReferenceMachinesFolder));
        var rows = FidelityReport.Rows(catalog, machines);

        Assert.Empty(problems);
        var j01 = Assert.Single(rows, r => r.Id == "N10-J01");
        Assert.Equal(0.34, j01.Published, 2);
        Assert.True(j01.Agrees, "the reference machine's N10-J01 ratio moved the other way");
        Assert.Contains(rows, r => r.Id == "N10-C05" && r.Compared.StartsWith("DistinctContains", StringComparison.Ordinal));
        var withoutRatio = FidelityReport.WithoutRatio(catalog);
        Assert.Contains(withoutRatio, f => f.Id == "N9-J02" && f.Kind == "output" && f.Asm!.Contains("net8.0 printed 2400", StringComparison.Ordinal));
        Assert.Contains(withoutRatio, f => f.Id == "N9-J10" && f.Kind == "asm" && f.Hardware == "AVX-512");
        Assert.True(File.ReadAllText(RepoFiles.Path($"{CourseRepository.DocsFolder}/{FidelityReport.MarkdownFile}")) == FidelityMarkdown.Write(rows, machines, null, withoutRatio),
            "docs/fidelity.md is out of date: run `dotnet run --project helpers/PerfLab.Cli -- fidelity` and commit it.");
    }

    [Fact]
    public void A_figure_moving_the_other_way_on_a_reference_machine_is_a_disagreement_unless_it_depends_on_hardware()
    {
        var slower = new ReferenceMeasurement("box", "A CPU", 10, 12, "net9.0", "net10.0", null);

        Assert.False(new FidelityRow("N10-X", "M", 0.5, [slower], null).Agrees);
        Assert.Contains("no (AVX-512)", FidelityMarkdown.Write([new FidelityRow("N10-X", "M", 0.5, [slower], "AVX-512")], []), StringComparison.Ordinal);
        Assert.Null(new FidelityRow("N10-X", "M", 0.5, [], null).Agrees);
    }

    [Fact]
    public void A_reference_ratio_shows_its_interval_in_the_ratios_format_and_says_when_it_holds_1()
    {
        var faster = new ReferenceMeasurement("box", "A CPU", 20, 5, "net9.0", "net10.0", new RatioInterval(0.222690, 0.280659, IntervalKind.Iterations));
        var unclear = new ReferenceMeasurement("box", "A CPU", 10, 9.5, "net9.0", "net10.0", new RatioInterval(0.91, 1.07, IntervalKind.Iterations));
        var tiny = new ReferenceMeasurement("box", "A CPU", 1000, 5, "net9.0", "net10.0", new RatioInterval(0.0042, 0.0061, IntervalKind.Iterations));
        var acrossProcesses = new ReferenceMeasurement("box", "A CPU", 20, 5, "net9.0", "net10.0", new RatioInterval(0.212132, 0.294627, IntervalKind.Launches), Processes: 3);
        var rows = new[]
        {
            new FidelityRow("N10-A", "M", 0.3, [faster], null), new FidelityRow("N10-B", "M", 0.5, [unclear], null), new FidelityRow("N10-C", "M", 0.01, [tiny], null),
            new FidelityRow("N10-D", "M", 0.3, [acrossProcesses], null),
        };

        var markdown = FidelityMarkdown.Write(rows, []);
        var json = System.Text.Json.Nodes.JsonNode.Parse(FidelityJson.Write(rows))!["rows"]!;

        Assert.Contains("| N10-A | M | 0.30 | box 0.25 (0.22–0.28) | yes |", markdown, StringComparison.Ordinal);
        Assert.Contains("| N10-B | M | 0.50 | box 0.95 (0.91–1.07) (interval holds 1) | yes |", markdown, StringComparison.Ordinal);
        Assert.Contains("| N10-C | M | 0.01 | box 0.005 (0.004–0.006) | yes |", markdown, StringComparison.Ordinal);
        Assert.Contains("| N10-D | M | 0.30 | box 0.25 (0.21–0.29 across 3 processes) | yes |", markdown, StringComparison.Ordinal);
        Assert.Contains("from one process to the next", markdown, StringComparison.Ordinal); // the header says what the interval leaves out
        Assert.Equal((0.2227, 0.2807, 1), ((double)json[0]!["reference"]![0]!["low"]!, (double)json[0]!["reference"]![0]!["high"]!, (int)json[0]!["reference"]![0]!["processes"]!));
        Assert.Equal(3, (int)json[3]!["reference"]![0]!["processes"]!);
    }
}
