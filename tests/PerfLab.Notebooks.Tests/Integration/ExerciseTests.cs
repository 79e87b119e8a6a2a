using PerfLab.Contract;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>Each notebook's exercise: unsolved, its check says "not yet" without failing the notebook; with the kept solution, "✓".</summary>
public class ExerciseTests
{
    [Theory]
    [InlineData("00-start-here", "class PathLength", "\nvar exercise")]
    public async Task The_kept_solution_passes_the_check_and_the_unsolved_exercise_does_not(string notebook, string exerciseMarker, string callMarker)
    {
        var path = Path.Combine(Repo.Notebooks, notebook + ".ipynb");
        var document = NotebookDocument.Load(path);
        var exercise = document.Cells.Single(c => c.Kind == CellKind.Code && c.Source.Contains(exerciseMarker, StringComparison.Ordinal));
        var solution = await File.ReadAllTextAsync(Path.Combine(Repo.Notebooks, "solutions", notebook + ".exercise.cs"));
        var solved = solution.TrimEnd() + "\n" + exercise.Source[exercise.Source.IndexOf(callMarker, StringComparison.Ordinal)..];

        var unsolvedRun = await new NotebookRunner().RunAsync(path, BenchmarkMode.Smoke);
        var solvedRun = await new NotebookRunner().RunAsync(path, BenchmarkMode.Smoke, replacements: new Dictionary<int, string> { [exercise.Index] = solved });

        Assert.True(unsolvedRun.Succeeded, $"{unsolvedRun.FirstFailure?.Cell.Name}: {string.Join("\n", unsolvedRun.FirstFailure?.Outputs ?? [])}");
        Assert.True(solvedRun.Succeeded, $"{solvedRun.FirstFailure?.Cell.Name}: {string.Join("\n", solvedRun.FirstFailure?.Outputs ?? [])}");
        Assert.StartsWith("✗", CheckText(unsolvedRun), StringComparison.Ordinal);
        Assert.StartsWith("✓", CheckText(solvedRun), StringComparison.Ordinal);
    }

    // The check cell is the last code cell that produced a result.
    private static string CheckText(NotebookRun run) =>
        run.Cells.Where(c => c.Outputs.OfType<DisplayOutput>().Any(d => d.IsResult)).Last()
            .Outputs.OfType<DisplayOutput>().Last(d => d.IsResult).Data["text/plain"];
}
