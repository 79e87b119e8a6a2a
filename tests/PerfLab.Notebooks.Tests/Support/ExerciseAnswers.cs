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

    /// <summary>
    /// One answer to a notebook's exercise, checked as a reader's notebook checks it, in a real session: the
    /// notebook's setup cell, the answer, then the check cell's call. The answer is the exercise cell as it
    /// stands (<paramref name="find"/> null), <paramref name="from"/> as it is (<paramref name="find"/> ""), or
    /// <paramref name="from"/> with <paramref name="find"/> replaced; the exercise cell's statements from
    /// <paramref name="callMarker"/> on follow the class. Returns the check's text.
    /// </summary>
    public static async Task<string> CheckedAnswerAsync(string answer, string notebook, string classMarker, string callMarker, string solutionFile, AnswerStart from, string? find, string? replaceWith, string check, PerfLab.Contract.BenchmarkMode mode = PerfLab.Contract.BenchmarkMode.Smoke)
    {
        var path = Path.Combine(Repo.Notebooks, notebook);
        var exercise = NotebookDocument.Load(path).Cells.Single(c => c.Kind == CellKind.Code && c.Source.Contains(classMarker, StringComparison.Ordinal)).Source;
        var callAt = exercise.IndexOf(callMarker, StringComparison.Ordinal);
        Assert.True(callAt > 0, $"{notebook}'s exercise cell has no '{callMarker.Trim()}'");
        var start = from == AnswerStart.Exercise ? exercise[..callAt] : (await File.ReadAllTextAsync(Path.Combine(Repo.Notebooks, "solutions", solutionFile))).TrimEnd();
        Assert.True(string.IsNullOrEmpty(find) || start.Contains(find, StringComparison.Ordinal), $"the {from.ToString().ToLowerInvariant()} no longer contains '{find}'");
        var code = find switch
        {
            null => exercise,
            "" => start + "\n" + exercise[callAt..],
            _ => start.Replace(find, replaceWith, StringComparison.Ordinal) + "\n" + exercise[callAt..],
        };

        using var cells = new CellRecorder(Path.GetDirectoryName(path), mode);
        var setup = await cells.RunAsync(SetupCell.For(path, Repo.Root));
        var ran = await cells.RunAsync(code);
        var checkCell = await cells.RunAsync("PerfLab.Notebooks.Exercises." + check);

        Assert.True(setup.Outcome.Succeeded && ran.Outcome.Succeeded && checkCell.Outcome.Succeeded, $"{answer}: {setup}\n{ran}\n{checkCell}");
        return checkCell.ResultText ?? "";
    }
}
