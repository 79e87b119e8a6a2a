using System.Text.Json.Nodes;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>
/// Numbers the prose presents as the course machine's are the reference run's (<see cref="ReferenceNumbers"/>): each
/// carries a marker naming the result it quotes, and the number must be that result at the precision written.
/// </summary>
public class ReferenceNumbersTests
{
    private static JsonObject Reference => JsonNode.Parse(File.ReadAllText(Path.Combine(Repo.Root, ReferenceNumbers.MachineFile)))!.AsObject();

    [Fact]
    public void Every_number_the_prose_quotes_from_the_reference_run_is_the_reference_files()
    {
        var reference = Reference;
        var notebooks = Integration.RunCommandTests.CourseNotebooks();
        var quotes = notebooks.SelectMany(n => ReferenceNumbers.In(n, Repo.Root)).ToList();
        var problems = quotes.Select(q => ReferenceNumbers.Check(q, reference)).OfType<string>()
            .Concat(notebooks.SelectMany(n => ReferenceNumbers.Stray(n, Repo.Root)))
            .Concat(notebooks.SelectMany(n => ReferenceNumbers.Unquoted(n, Repo.Root)))
            .ToList();

        Assert.True(problems.Count == 0, $"{problems.Count} problem(s) with the numbers the prose presents as measured ({quotes.Count} marked; the reference is {ReferenceNumbers.MachineFile}):\n" + string.Join("\n", problems));
        Assert.True(quotes.Count >= 10, $"only {quotes.Count} marked numbers in the notebooks: did the marker's syntax change?");
    }

    [Fact]
    public void A_wrong_number_an_unknown_case_an_ambiguous_point_and_a_stray_marker_are_each_reported()
    {
        using var folder = new TempFolder();
        var notebooks = Directory.CreateDirectory(Path.Combine(folder.Path, "notebooks", "jit"));
        var path = Path.Combine(notebooks.FullName, "01-tiering-and-pgo.ipynb");
        File.WriteAllText(path, Json(Metadata(), Markdown(
            "Right: 0.73<!-- reference: SharedGenericEquality.TextsMatch@net10.0 / SharedGenericEquality.TextsMatch@net9.0 -->, " +
            "3.45x<!-- reference: XmlLoading.Reload@net9.0{DOTNET_TieredCompilation=0} / XmlLoading.Reload@net9.0 -->, " +
            "13976 B<!-- reference: XmlLoading.Reload@net8.0 B -->.\n" +
            "Wrong: 0.49<!-- reference: SharedGenericEquality.TextsMatch@net10.0 / SharedGenericEquality.TextsMatch@net9.0 -->, " +
            "2 ns<!-- reference: NoSuchClass.Method@net10.0 ns -->, " +
            "and a marker alone <!-- reference: XmlLoading.Reload@net10.0 ns -->.")));
        var reference = Reference;

        var quotes = ReferenceNumbers.In(path, folder.Path);
        var problems = quotes.Select(q => ReferenceNumbers.Check(q, reference)).ToList();
        var stray = ReferenceNumbers.Stray(path, folder.Path).ToList();

        Assert.Equal(5, quotes.Count);
        Assert.Null(problems[0]);
        Assert.Null(problems[1]);
        Assert.Null(problems[2]);
        Assert.Contains("(0.73 at the precision written), not 0.49", problems[3], StringComparison.Ordinal);
        Assert.Contains("the reference run has no NoSuchClass.Method@net10.0 for notebooks/jit/01-tiering-and-pgo.ipynb", problems[4], StringComparison.Ordinal);
        Assert.Single(stray);
        Assert.Contains("does not follow a number", stray[0], StringComparison.Ordinal);

        // Two runs of one notebook measuring the same case (two cells with a class of the same name): which one is meant?
        var twice = reference.DeepClone().AsObject();
        var runs = twice["runs"]!.AsArray();
        runs.Add(runs.First(r => r!["run"]!["results"]!.AsArray().Any(x => (string?)x!["type"] == "SharedGenericEquality"))!.DeepClone());
        var ambiguous = ReferenceNumbers.Check(quotes[0], twice);
        Assert.Contains("2 results for SharedGenericEquality.TextsMatch@net10.0", ambiguous, StringComparison.Ordinal);
    }

    [Fact]
    public void A_measurement_of_ours_and_a_reference_number_without_a_marker_are_reported_and_quick_runs_and_marked_numbers_are_not()
    {
        using var folder = new TempFolder();
        var path = folder.Write("demo.ipynb", Json(Metadata(), Markdown(
            "On our machine it took 3.2 ns. The reference run measured 0.73 here. Quick runs on the course machine gave 0.49 to 0.63. " +
            "The course's reference run measured 0.73<!-- reference: SharedGenericEquality.TextsMatch@net10.0 / SharedGenericEquality.TextsMatch@net9.0 -->. " +
            "The reference run covers N10-C11. It is 4 bytes of Tier1 on our\nmachine.")));

        var problems = ReferenceNumbers.Unquoted(path, folder.Path).ToList();

        Assert.Equal(3, problems.Count);
        Assert.Contains("\"On our machine it took 3.2 ns.\" says \"our\"", problems[0], StringComparison.Ordinal);
        Assert.Contains("\"It is 4 bytes of Tier1 on our machine.\" says \"our\"", problems[2], StringComparison.Ordinal);
        Assert.Contains("\"The reference run measured 0.73 here.\" quotes the reference run without a marker", problems[1], StringComparison.Ordinal);
    }
}
