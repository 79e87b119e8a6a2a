using PerfLab.Contract;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// What an exercise's check cell shows: "✓ ..." when the exercise is solved, "✗ Not yet: ..." with a
/// hint when it is not. A check never throws for an unsolved exercise, so a notebook run top to
/// bottom (CI, headless) still succeeds with the exercise left as it was.
/// </summary>
/// <param name="Solved">True when the reader's code passes the check.</param>
/// <param name="Message">What passed, or the hint for what to change.</param>
public sealed record ExerciseResult(bool Solved, string Message)
{
    /// <summary>A passed check.</summary>
    /// <param name="message">What the reader got right.</param>
    public static ExerciseResult Pass(string message) => new(true, message);

    /// <summary>
    /// A passed check of a smoke run, whose bytes per call were not read: one cold call of Tier0 code
    /// allocates what the steady state does not.
    /// </summary>
    /// <param name="message">What the reader got right.</param>
    public static ExerciseResult PassWithoutBytes(string message) =>
        Pass($"{message} ({ModeChoice.Name(BenchmarkMode.Smoke)} mode: one cold call, so the bytes were not checked; run the notebook in {ModeChoice.Name(BenchmarkMode.Quick)} mode to see them at 0).");

    /// <summary>A check that did not pass yet.</summary>
    /// <param name="hint">What to change.</param>
    public static ExerciseResult NotYet(string hint) => new(false, hint);

    /// <summary>"✓ message" or "✗ Not yet: hint".</summary>
    public override string ToString() => Solved ? $"✓ {Message}" : $"✗ Not yet: {Message}";
}
