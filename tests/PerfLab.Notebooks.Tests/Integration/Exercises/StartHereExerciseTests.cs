using static PerfLab.Notebooks.Tests.Support.ExerciseAnswers;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>Notebook 00-start-here's exercise: hand the path length on to BenchmarkDotNet so no runtime can drop it.</summary>
public sealed class StartHereExerciseTests
{
    private static readonly Exercise PathLength = new(
        "00-start-here.ipynb", "class PathLength", "\nvar exercise", "00-start-here.exercise.cs",
        "StartHere.CheckDeadCode(typeof(PathLength))")
    {
        // The check reads the class alone: no benchmark runs.
        Call = "",
    };

    // A void Measure that keeps its result in a field instead of returning it.
    private static readonly Edit[] KeepLengthInField =
    [
        new("public double Measure()", "public void Measure()"),
        new("public class PathLength\n{", "public class PathLength\n{\n    private double _last;"),
    ];

    /// <summary>
    /// The exercise run as part of its whole notebook: unsolved, its check says "not yet" without failing the
    /// notebook; with the kept solution, "✓".
    /// </summary>
    [Theory]
    [InlineData("00-start-here", "class PathLength", "\nvar exercise")]
    public async Task The_kept_solution_passes_the_check_and_the_unsolved_exercise_does_not(string notebook, string exerciseMarker, string callMarker)
    {
        var exercise = new Exercise(notebook + ".ipynb", exerciseMarker, callMarker, notebook + ".exercise.cs", Check: null);

        await CheckedAnswerAsync(exercise, "the unsolved exercise", AnswerStart.Exercise, null, null, "✗", route: AnswerRoute.WholeNotebook);
        await CheckedAnswerAsync(exercise, "the kept solution", AnswerStart.Solution, "", "", "✓", route: AnswerRoute.WholeNotebook);
    }

    /// <summary>
    /// Notebook 00's check on the answers a reader is likely to write, without running a benchmark:
    /// the class compiled in a real notebook session, the check called as the check cell calls it.
    /// </summary>
    [Theory]
    [InlineData("the kept solution", null, null, "✓")]
    [InlineData("the unsolved exercise", "unsolved", null, "✗ Not yet: Measure still throws its result away")]
    [InlineData("return 0 after the loop", "return length;", "return 0;", "✗ Not yet: Measure returns 0, but the path")]
    [InlineData("returning a field's value instead of the length", "return length;", "return _xs[^1];", "✗ Not yet: Measure returns ")]
    [InlineData("storing the length in a field", "return length;", "_last = length;", "✓")]
    [InlineData("storing half the length in a field", "return length;", "_last = length / 2;", "✗ Not yet: Measure stores no field holding the path length")]
    public async Task Path_length_check_passes_only_a_benchmark_that_hands_on_the_length(string answer, string? find, string? replaceWith, string expectedStart)
    {
        // Here find is null for the kept solution and "unsolved" for the exercise cell's class as it stands.
        var edit = find switch
        {
            "unsolved" => null,
            null => "",
            _ => find,
        };
        var alsoEdit = replaceWith?.StartsWith("_last", StringComparison.Ordinal) == true ? KeepLengthInField : null;
        await CheckedAnswerAsync(PathLength, answer, AnswerStart.Solution, edit, replaceWith, expectedStart, alsoEdit: alsoEdit);
    }
}
