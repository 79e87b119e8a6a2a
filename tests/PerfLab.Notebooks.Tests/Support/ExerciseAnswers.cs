using PerfLab.Contract;
using PerfLab.Course;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// The exercise tests' one way to check an answer to a notebook's exercise: build the answer from the exercise cell
/// or the kept solution, run it as a reader's notebook would, and hold the check's reply to what the case expects.
/// </summary>
public static class ExerciseAnswers
{
    /// <summary>What an edited answer starts from.</summary>
    public enum AnswerStart
    {
        /// <summary>The exercise cell as the notebook has it.</summary>
        Exercise,

        /// <summary>The kept solution in notebooks/solutions.</summary>
        Solution,
    }

    /// <summary>How an answer is run.</summary>
    public enum AnswerRoute
    {
        /// <summary>In a session of its own: the setup cell, any cells given to run before, the answer, the check's call.</summary>
        Session,

        /// <summary>
        /// The whole notebook top to bottom, as `perflab run` runs it, with the answer in the exercise cell's place:
        /// every cell must succeed, and the check's text is the notebook's own check cell's (the last code cell that
        /// shows a result).
        /// </summary>
        WholeNotebook,
    }

    /// <summary>A notebook's exercise, as its tests find and check it.</summary>
    /// <param name="Notebook">The notebook under notebooks/, e.g. "jit/04-bounds-checks.ipynb".</param>
    /// <param name="CellMarker">Text only the exercise cell (the one a reader changes) contains.</param>
    /// <param name="CallMarker">Where that cell's statements after the answer begin (they follow every answer); null when the whole cell is the answer.</param>
    /// <param name="SolutionFile">The kept solution's file in notebooks/solutions.</param>
    /// <param name="Check">The check cell's call, under PerfLab.Notebooks.Exercises; null for an exercise only run whole (<see cref="AnswerRoute.WholeNotebook"/>).</param>
    public sealed record Exercise(string Notebook, string CellMarker, string? CallMarker, string SolutionFile, string? Check)
    {
        /// <summary>
        /// Statements that follow every answer instead of the exercise cell's own from <see cref="CallMarker"/> on:
        /// "" for none (a check that reads the class alone), or another call (one that skips a measurement the
        /// check does not read). Null: the cell's own.
        /// </summary>
        public string? Call { get; init; }

        /// <summary>The notebook's path.</summary>
        public string Path => System.IO.Path.Combine(Repo.Notebooks, Notebook);

        /// <summary>The notebook's one code cell that contains <paramref name="marker"/>.</summary>
        public NotebookCell Cell(string marker) =>
            NotebookDocument.Load(Path).Cells.Single(c => c.Kind == CellKind.Code && c.Source.Contains(marker, StringComparison.Ordinal));

        /// <summary>The kept solution's text.</summary>
        public Task<string> ReadSolutionAsync() => File.ReadAllTextAsync(System.IO.Path.Combine(CourseRepository.PathOf(CourseRepository.SolutionsFolder, Repo.Root), SolutionFile));
    }

    /// <summary>What a checked answer's session showed.</summary>
    /// <param name="Check">The check's text.</param>
    /// <param name="Before">The text of each cell run before the answer, in order (null for a cell that showed no value); none in a whole-notebook run.</param>
    public sealed record CheckedAnswer(string Check, IReadOnlyList<string?> Before);

    /// <summary>One more replacement in an answer, after its own: a second change the answer needs (the field it stores into).</summary>
    public sealed record Edit(string Find, string ReplaceWith);

    /// <summary>
    /// One answer to a notebook's exercise, checked as a reader's notebook checks it (<paramref name="route"/>: by
    /// default in a session of its own, with the notebook's setup cell, the cells <paramref name="before"/> (the
    /// notebook's run an answer reads), the answer, then the check cell's call).
    /// <para>
    /// The answer is the exercise cell as it stands (<paramref name="find"/> null), <paramref name="from"/> as it is
    /// (<paramref name="find"/> ""), or <paramref name="from"/> with <paramref name="find"/> replaced; then each of
    /// <paramref name="alsoEdit"/>. The exercise cell's statements from its call marker on (or the exercise's own
    /// <see cref="Exercise.Call"/>) follow it.
    /// </para>
    /// <para>
    /// Every cell must succeed and the check's text start with <paramref name="expectedStart"/>; a failure names the
    /// answer and shows every cell, or the check's whole text (xUnit's StartsWith would cut it after about 40
    /// characters). Returns what the cells showed.
    /// </para>
    /// </summary>
    public static async Task<CheckedAnswer> CheckedAnswerAsync(
        Exercise exercise,
        string answer,
        AnswerStart from,
        string? find,
        string? replaceWith,
        string expectedStart,
        BenchmarkMode mode = BenchmarkMode.Smoke,
        IReadOnlyList<Edit>? alsoEdit = null,
        IReadOnlyList<string>? before = null,
        AnswerRoute route = AnswerRoute.Session)
    {
        var cell = exercise.Cell(exercise.CellMarker);
        var code = await AnswerAsync(exercise, cell.Source, answer, from, find, replaceWith, alsoEdit ?? []);
        var shown = route switch
        {
            AnswerRoute.Session => await InSessionAsync(exercise, answer, code, mode, before ?? []),
            AnswerRoute.WholeNotebook when before is null or [] => await InWholeNotebookAsync(exercise, answer, cell, code, mode),
            AnswerRoute.WholeNotebook => throw new ArgumentException("A whole-notebook run runs the notebook's own cells before the answer.", nameof(before)),
            _ => throw new ArgumentOutOfRangeException(nameof(route), route, null),
        };

        Assert.True(shown.Check.StartsWith(expectedStart, StringComparison.Ordinal), $"{answer}: the check said\n{shown.Check}\nwhich does not start with\n{expectedStart}");
        return shown;
    }

    // The answer's code, followed by the statements the exercise cell runs after it.
    private static async Task<string> AnswerAsync(Exercise exercise, string cell, string answer, AnswerStart from, string? find, string? replaceWith, IReadOnlyList<Edit> alsoEdit)
    {
        var callAt = exercise.CallMarker is null ? cell.Length : cell.IndexOf(exercise.CallMarker, StringComparison.Ordinal);
        Assert.True(callAt > 0, $"{exercise.Notebook}'s exercise cell has no '{exercise.CallMarker?.Trim()}'");
        var start = from == AnswerStart.Exercise ? cell[..callAt] : (await exercise.ReadSolutionAsync()).TrimEnd();
        Assert.True(string.IsNullOrEmpty(find) || start.Contains(find, StringComparison.Ordinal), $"{answer}: the {from.ToString().ToLowerInvariant()} no longer contains '{find}'");
        var code = find switch
        {
            null => cell[..callAt],
            "" => start,
            _ => start.Replace(find, replaceWith, StringComparison.Ordinal),
        };
        foreach (var edit in alsoEdit)
        {
            Assert.True(code.Contains(edit.Find, StringComparison.Ordinal), $"{answer}: the answer has no '{edit.Find}' to replace");
            code = code.Replace(edit.Find, edit.ReplaceWith, StringComparison.Ordinal);
        }

        // The statements after the answer, from a line of their own (a call marker starts with its line break).
        var call = exercise.Call ?? cell[callAt..];
        return call.Length == 0 || call.StartsWith('\n') ? code + call : code + "\n" + call;
    }

    private static async Task<CheckedAnswer> InSessionAsync(Exercise exercise, string answer, string code, BenchmarkMode mode, IReadOnlyList<string> before)
    {
        var check = exercise.Check ?? throw new ArgumentException($"{exercise.Notebook}'s exercise names no check to call.", nameof(exercise));
        // Every check reads only the bytes per call of the runs it is given (never their times), so the session's quick
        // runs share the measuring lock, as the quick route's do (SteadyStateRuns), instead of stopping every other
        // measurement of the test run while they wait for it and then measure.
        using var cells = new CellRecorder(Path.GetDirectoryName(exercise.Path), mode, readsOnlyBytes: true);
        var setup = await cells.RunAsync(SetupCell.For(exercise.Path, Repo.Root));
        var ranBefore = new List<CellRecorder.Cell>();
        foreach (var earlier in before)
        {
            ranBefore.Add(await cells.RunAsync(earlier));
        }

        var ran = await cells.RunAsync(code);
        var checkCell = await cells.RunAsync("PerfLab.Notebooks.Exercises." + check);

        CellRecorder.Cell[] all = [setup, .. ranBefore, ran, checkCell];
        Assert.True(all.All(c => c.Outcome.Succeeded), $"{answer}: {string.Join("\n", all.AsEnumerable())}");
        return new CheckedAnswer(checkCell.ResultText ?? "", ranBefore.Select(c => c.ResultText).ToList());
    }

    private static async Task<CheckedAnswer> InWholeNotebookAsync(Exercise exercise, string answer, NotebookCell cell, string code, BenchmarkMode mode)
    {
        var replacements = code == cell.Source ? null : new Dictionary<int, string> { [cell.Index] = code };
        var run = await new NotebookRunner().RunAsync(exercise.Path, ModeChoice.Given(mode), replacements: replacements);
        Assert.True(run.Succeeded, $"{answer}: {run.FirstFailure?.Cell.Name}: {string.Join("\n", run.FirstFailure?.Outputs ?? [])}");

        // The check cell is the last code cell that produced a result.
        var check = run.Cells.Where(c => c.Outputs.OfType<DisplayOutput>().Any(d => d.IsResult)).Last()
            .Outputs.OfType<DisplayOutput>().Last(d => d.IsResult).Data["text/plain"];
        return new CheckedAnswer(check, []);
    }
}
