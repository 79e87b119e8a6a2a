using PerfLab.Disassembly;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/jit/06-folding-branches-barriers.ipynb: a range test that every runtime
/// compiles to one compare. The check calls the reader's method on every interesting int (the range's
/// edges, negatives, the extremes) and reads the reader's own listings on .NET 8, 9 and 10: exactly one
/// <c>cmp</c> each. Listings do not depend on the benchmark mode.
/// </summary>
public static class Branches
{
    private const string MethodName = "IsLowerLetter";

    /// <summary>Checks the reader's class and the listings captured from it.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(Letters)</c>.</param>
    /// <param name="asm">The <c>Lab.AsmAsync</c> result for IsLowerLetter.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckOneCompare(Type exercise, AsmReport? asm)
    {
        if (!ExerciseSteps.TryFindMethod<bool>(exercise, "Branches.CheckOneCompare(typeof(Letters), lettersAsm)", $"public static bool {MethodName}(int c)", MethodName, [typeof(int)], out var method, out var hint))
        {
            return hint;
        }

        var probes = Enumerable.Range(-300, 700)
            .Concat([int.MinValue, int.MinValue + 'a', int.MinValue + 'z', int.MaxValue, int.MaxValue - 'a', 'a' - 1, 'a', 'z', 'z' + 1, unchecked('a' + int.MinValue + 1)]);
        var wrong = ExerciseSteps.FirstWrongAnswer(
            method,
            probes,
            c => [c],
            c => c is >= 'a' and <= 'z',
            (c, thrown) => $"{MethodName}({c}) threw {thrown.GetType().Name}: it must answer for every int.",
            (c, answer, expected) => $"{MethodName}({c}) returns {answer.ToString().ToLowerInvariant()}, but {Describe(c)} is {(expected ? "" : "not ")}between 'a' (97) and 'z' (122).");
        if (wrong is not null)
        {
            return wrong;
        }

        return ReaderListings.Check(asm, exercise, MethodName, "lettersAsm", capturedByExerciseCell: false, OneCompare, sizes => $"{MethodName} answers right for every int tried and compiles to one compare on every runtime ({sizes}).");
    }

    private static ExerciseResult OneCompare(string runtime, AsmListing listing)
    {
        var compares = listing.Instructions.Count(l => l.StartsWith("cmp", StringComparison.Ordinal));
        return compares != 1
            ? ExerciseResult.NotYet($"on {runtime} {MethodName} has {compares} cmp instructions. Subtract the low end first: every value below it wraps around to a huge unsigned number, so one unsigned comparison with the width of the range answers both questions.")
            : ExerciseResult.Pass($"{runtime} {listing.CodeSize} B");
    }

    private static string Describe(int c) => c is >= 32 and < 127 ? $"'{(char)c}' ({c})" : c.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
