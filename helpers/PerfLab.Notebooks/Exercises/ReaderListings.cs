using PerfLab.Disassembly;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The last step of the exercises that read the reader's own listings (a Lab.AsmAsync capture): every runtime's
/// listing of one method of the reader's class, each given to the exercise's own test of it.
/// </summary>
internal static class ReaderListings
{
    /// <summary>Checks <paramref name="method"/>'s listing on every runtime of <paramref name="asm"/>.</summary>
    /// <param name="asm">The capture the reader passed, or null.</param>
    /// <param name="exercise">The reader's class.</param>
    /// <param name="method">The method whose listings are read.</param>
    /// <param name="variable">What the notebook calls the capture, e.g. lettersAsm (for the hint that asks for it).</param>
    /// <param name="capturedByExerciseCell">The exercise cell captures the listings itself (else a cell of its own does).</param>
    /// <param name="test">One runtime's test (moniker, listing): NotYet with the hint, or Pass with what it found ("net9.0 23 B").</param>
    /// <param name="solved">The message of a solved exercise, from what every runtime's test found, joined with ", ".</param>
    public static ExerciseResult Check(AsmReport? asm, Type exercise, string method, string variable, bool capturedByExerciseCell, Func<string, AsmListing, ExerciseResult> test, Func<string, string> solved)
    {
        var capture = $"await Lab.AsmAsync<{exercise.Name}>(\"{method}\")";
        if (asm is null)
        {
            return ExerciseResult.NotYet(capturedByExerciseCell
                ? $"run the exercise cell and pass its listings: var {variable} = {capture}."
                : $"capture the listings and pass them: var {variable} = {capture}.");
        }

        var found = new List<string>();
        foreach (var runtime in asm.Runtimes)
        {
            var listing = asm.Find(runtime.Runtime, $"{exercise.Name}:{method}(");
            if (listing is null)
            {
                return ExerciseResult.NotYet($"the listings have no {method} on {runtime.Runtime}: capture them with {capture} after changing the class.");
            }

            var tested = test(runtime.Runtime, listing);
            if (!tested.Solved)
            {
                return tested;
            }

            found.Add(tested.Message);
        }

        return found.Count == 0
            ? ExerciseResult.NotYet($"the listings are empty: run the {(capturedByExerciseCell ? "exercise cell" : "cell")} again.")
            : ExerciseResult.Pass(solved(string.Join(", ", found)));
    }
}
