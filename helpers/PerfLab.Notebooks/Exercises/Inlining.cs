using System.Reflection;
using PerfLab.Disassembly;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/jit/05-loops-and-inlining.ipynb: a helper whose try/finally kept it from
/// being inlined before .NET 10, rewritten so that .NET 8 and 9 inline it too. The check calls the
/// reader's helper (same result, the counter still counts each call) and reads the reader's own listings
/// of the loop that calls it (no call left on any runtime). Listings do not depend on the benchmark mode.
/// </summary>
public static class Inlining
{
    /// <summary>Checks the reader's class and the listings captured from it.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(Tally)</c>.</param>
    /// <param name="asm">The <c>Lab.AsmAsync</c> result for the class's ScaleAll.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckInlinedEverywhere(Type exercise, AsmReport? asm)
    {
        if (!ExerciseSteps.IsGiven(exercise, "Inlining.CheckInlinedEverywhere(typeof(Tally), tallyAsm)", out var hint))
        {
            return hint;
        }

        var scale = ReaderCode.StaticMethod<int>(exercise, "Scale", typeof(int));
        var calls = exercise.GetProperty("Calls", BindingFlags.Public | BindingFlags.Static);
        if (scale is null || calls?.PropertyType != typeof(int))
        {
            return ExerciseResult.NotYet($"{exercise.Name} needs `public static int Scale(int value)` and `public static int Calls`: keep both and change Scale's body.");
        }

        if (scale.MethodImplementationFlags.HasFlag(MethodImplAttributes.NoInlining))
        {
            return ExerciseResult.NotYet("Scale is marked NoInlining, which forbids exactly what the exercise asks for.");
        }

        if (!ReaderCode.TryRun(() => ((int)calls.GetValue(null)!, (int)scale.Invoke(null, [14])!, (int)calls.GetValue(null)!), out var call, out var thrown))
        {
            return ExerciseResult.NotYet($"calling Scale(14) threw {thrown.GetType().Name}: {thrown.Message}");
        }

        var (before, answer, after) = call;

        if (answer != 42)
        {
            return ExerciseResult.NotYet($"Scale(14) returns {answer}; it must still return three times its argument, 42.");
        }

        if (after - before != 1)
        {
            return ExerciseResult.NotYet($"one call of Scale moved Calls by {after - before}; it must still count every call, exactly once.");
        }

        return ReaderListings.Check(
            asm,
            exercise,
            "ScaleAll",
            "tallyAsm",
            capturedByExerciseCell: false,
            (runtime, listing) => listing.Instructions.Any(l => l.StartsWith("call", StringComparison.Ordinal) && l.Contains(":Scale(", StringComparison.Ordinal))
                ? ExerciseResult.NotYet($"on {runtime} ScaleAll still calls Scale: the JIT would not inline it. Before .NET 10 a method with a try/finally (or try/catch) is never inlined, whatever its size or attributes; what does this finally protect against?")
                : ExerciseResult.Pass($"{runtime} {listing.CodeSize} B"),
            sizes => $"Scale still triples and counts, and every runtime inlines it into ScaleAll's loop ({sizes}): time it again and .NET 8 and 9 should now be close to .NET 10.");
    }
}
