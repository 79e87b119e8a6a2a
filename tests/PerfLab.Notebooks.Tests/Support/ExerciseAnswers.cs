using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>The exercise tests' one way to check an answer to a notebook's exercise.</summary>
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

    /// <summary>A notebook's exercise, as its tests find and check it.</summary>
    /// <param name="Notebook">The notebook under notebooks/, e.g. "jit/04-bounds-checks.ipynb".</param>
    /// <param name="CellMarker">Text only the exercise cell (the one a reader changes) contains.</param>
    /// <param name="CallMarker">Where that cell's statements after the answer begin (they follow every answer); null when the whole cell is the answer.</param>
    /// <param name="SolutionFile">The kept solution's file in notebooks/solutions.</param>
    /// <param name="Check">The check cell's call, under PerfLab.Notebooks.Exercises.</param>
    public sealed record Exercise(string Notebook, string CellMarker, string? CallMarker, string SolutionFile, string Check)
    {
        /// <summary>
        /// Statements that follow every answer instead of the exercise cell's own from <see cref="CallMarker"/> on:
        /// "" for none (a check that reads the class alone), or another call (one that skips a measurement the
        /// check does not read). Null: the cell's own.
        /// </summary>
        public string? Call { get; init; }

        /// <summary>The notebook's path.</summary>
        public string Path => System.IO.Path.Combine(Repo.Notebooks, Notebook);

        /// <summary>The source of the notebook's one code cell that contains <paramref name="marker"/>.</summary>
        public string Cell(string marker) =>
            NotebookDocument.Load(Path).Cells.Single(c => c.Kind == CellKind.Code && c.Source.Contains(marker, StringComparison.Ordinal)).Source;

        /// <summary>The kept solution's text.</summary>
        public Task<string> ReadSolutionAsync() => File.ReadAllTextAsync(System.IO.Path.Combine(Repo.Notebooks, "solutions", SolutionFile));
    }

    /// <summary>What a checked answer's session showed.</summary>
    /// <param name="Check">The check's text.</param>
    /// <param name="Before">The text of each cell run before the answer, in order (null for a cell that showed no value).</param>
    public sealed record CheckedAnswer(string Check, IReadOnlyList<string?> Before);

    /// <summary>One more replacement in an answer, after its own: a second change the answer needs (the field it stores into).</summary>
    public sealed record Edit(string Find, string ReplaceWith);

    /// <summary>
    /// One answer to a notebook's exercise, checked as a reader's notebook checks it, in a real session: the
    /// notebook's setup cell, the cells <paramref name="before"/> (the notebook's run an answer reads), the answer,
    /// then the check cell's call. The answer is the exercise cell as it
    /// stands (<paramref name="find"/> null), <paramref name="from"/> as it is (<paramref name="find"/> ""), or
    /// <paramref name="from"/> with <paramref name="find"/> replaced, then each of <paramref name="alsoEdit"/>; the
    /// exercise cell's statements from its call marker on (or the exercise's own <see cref="Exercise.Call"/>) follow
    /// it. Every cell must succeed and the check's text start with
    /// <paramref name="expectedStart"/>; the failure says which answer, and shows every cell or the check's whole
    /// text (xUnit's StartsWith would cut it after about 40 characters). Returns what the cells showed.
    /// </summary>
    public static async Task<CheckedAnswer> CheckedAnswerAsync(Exercise exercise, string answer, AnswerStart from, string? find, string? replaceWith, string expectedStart, PerfLab.Contract.BenchmarkMode mode = PerfLab.Contract.BenchmarkMode.Smoke, IReadOnlyList<Edit>? alsoEdit = null, IReadOnlyList<string>? before = null)
    {
        var path = exercise.Path;
        var cell = exercise.Cell(exercise.CellMarker);
        var callAt = exercise.CallMarker is null ? cell.Length : cell.IndexOf(exercise.CallMarker, StringComparison.Ordinal);
        Assert.True(callAt > 0, $"{exercise.Notebook}'s exercise cell has no '{exercise.CallMarker?.Trim()}'");
        var call = exercise.Call ?? cell[callAt..];
        var start = from == AnswerStart.Exercise ? cell[..callAt] : (await exercise.ReadSolutionAsync()).TrimEnd();
        Assert.True(string.IsNullOrEmpty(find) || start.Contains(find, StringComparison.Ordinal), $"the {from.ToString().ToLowerInvariant()} no longer contains '{find}'");
        var answerCode = find switch
        {
            null => cell[..callAt],
            "" => start,
            _ => start.Replace(find, replaceWith, StringComparison.Ordinal),
        };
        foreach (var edit in alsoEdit ?? [])
        {
            Assert.True(answerCode.Contains(edit.Find, StringComparison.Ordinal), $"{answer}: the answer has no '{edit.Find}' to replace");
            answerCode = answerCode.Replace(edit.Find, edit.ReplaceWith, StringComparison.Ordinal);
        }

        var code = FollowedBy(answerCode, call);

        using var cells = new CellRecorder(Path.GetDirectoryName(path), mode);
        var setup = await cells.RunAsync(SetupCell.For(path, Repo.Root));
        var ranBefore = new List<CellRecorder.Cell>();
        foreach (var earlier in before ?? [])
        {
            ranBefore.Add(await cells.RunAsync(earlier));
        }

        var ran = await cells.RunAsync(code);
        var checkCell = await cells.RunAsync("PerfLab.Notebooks.Exercises." + exercise.Check);

        CellRecorder.Cell[] all = [setup, .. ranBefore, ran, checkCell];
        Assert.True(all.All(c => c.Outcome.Succeeded), $"{answer}: {string.Join("\n", all.AsEnumerable())}");
        var text = checkCell.ResultText ?? "";
        Assert.True(text.StartsWith(expectedStart, StringComparison.Ordinal), $"{answer}: the check said\n{text}\nwhich does not start with\n{expectedStart}");
        return new CheckedAnswer(text, ranBefore.Select(c => c.ResultText).ToList());
    }

    // The statements after an answer, from a line of their own (a call marker starts with its line break).
    private static string FollowedBy(string answer, string call) =>
        call.Length == 0 || call.StartsWith('\n') ? answer + call : answer + "\n" + call;
}
