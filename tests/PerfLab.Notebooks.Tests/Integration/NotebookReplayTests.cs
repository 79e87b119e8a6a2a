using PerfLab.Contract;
using PerfLab.Notebooks.Documents;
using PerfLab.Results;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// The course site's way of running a notebook: benchmark cells answered from recorded runs by what their code
/// measures, never by their position, and never measured.
/// </summary>
public class NotebookReplayTests
{
    private const string Usings = "using BenchmarkDotNet.Attributes;\nusing PerfLab.Notebooks;";

    private static string SumsCell(int count) => $$"""
        public class Sums
        {
            private readonly int[] _values = Enumerable.Range(0, {{count}}).ToArray();

            [Benchmark] public int Total() => _values.Sum();
        }

        await Lab.RunAsync<Sums>(runtimes: ["net8.0", "net10.0"])
        """;

    private static readonly BenchmarkRun Recorded = Fake.Run(
        BenchmarkMode.Full,
        Fake.Outcome("net8.0", "8.0.31", Fake.Case("Total", 4321.5, 0, baseline: true)),
        Fake.Outcome("net10.0", "10.0.77", Fake.Case("Total", 1234.5, 0, baseline: true)));

    [Fact]
    public async Task A_cell_is_answered_by_the_run_of_its_own_code_and_the_same_cell_edited_by_none()
    {
        using var folder = new TempFolder();
        var original = folder.Write("sums.ipynb", Json(Metadata(), Markdown("# Sums"), Code(Usings), Code(SumsCell(100))));
        var asked = new List<string>();
        var unanswered = await NotebookReplay.RunAsync(original, code => { asked.Add(code); return null; }, new HashSet<int>(), null, CancellationToken.None);
        var code = Assert.Single(asked);
        Assert.Matches("^[0-9a-f]{64}$", code);
        var missing = Assert.Single(unanswered.Calls);
        Assert.Equal((2, "Sums"), (missing.Cell, missing.Type));
        Assert.Null(missing.Found);
        Assert.True(unanswered.Run.Succeeded, "a cell without a recorded run must not fail: the site notes it");

        var answered = await NotebookReplay.RunAsync(original, key => key == code ? Recorded : null, new HashSet<int>(), null, CancellationToken.None);
        Assert.Same(Recorded, Assert.Single(answered.Calls).Found);
        var html = string.Concat(answered.Run.Cells[2].Outputs.OfType<DisplayOutput>().Select(o => o.Data.GetValueOrDefault("text/html")));
        Assert.Contains("10.0.77", html, StringComparison.Ordinal);

        // One more element in the input: other code, so the recorded numbers are not this cell's.
        var edited = folder.Write("edited.ipynb", Json(Metadata(), Markdown("# Sums"), Code(Usings), Code(SumsCell(101))));
        var afterEdit = await NotebookReplay.RunAsync(edited, key => key == code ? Recorded : null, new HashSet<int>(), null, CancellationToken.None);
        Assert.Null(Assert.Single(afterEdit.Calls).Found);
        var shown = string.Concat(afterEdit.Run.Cells[2].Outputs.OfType<DisplayOutput>().SelectMany(o => o.Data.Values));
        Assert.DoesNotContain("10.0.77", shown, StringComparison.Ordinal);
        Assert.Contains("No recorded run of Sums", shown, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Skipped_cells_are_kept_unrun_and_a_failing_cell_does_not_stop_the_ones_after_it()
    {
        using var folder = new TempFolder();
        var notebook = folder.Write("skips.ipynb", Json(Metadata(), Markdown("# Skips"), Code("throw new InvalidOperationException(\"an exercise left as it is\");"), Code("var unused = new int[0]; unused[1]"), Code("40 + 2")));

        var replayed = await NotebookReplay.RunAsync(notebook, _ => null, new HashSet<int> { 1 }, null, CancellationToken.None);

        Assert.Null(replayed.Run.Cells[1].ExecutionCount);
        Assert.False(replayed.Run.Cells[1].Failed);
        Assert.True(replayed.Run.Cells[2].Failed, "cell 3 should fail: it reads past the end of an array");
        Assert.Equal("42", replayed.Run.Cells[3].Outputs.OfType<DisplayOutput>().Single().Data["text/plain"]);
    }
}
