using System.Reflection;
using PerfLab.Disassembly;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/jit/04-bounds-checks.ipynb: rewrite a loop over the first <c>count</c>
/// elements of an array so that no runtime keeps a bounds check in it, without switching safety off.
/// The check calls the reader's method (same answers, and a count past the end must still throw), reads
/// its IL (no Unsafe or MemoryMarshal), and reads the reader's own listings on .NET 8, 9 and 10 (no jump
/// to CORINFO_HELP_RNGCHKFAIL). Listings do not depend on the benchmark mode, so smoke mode checks fully.
/// </summary>
public static class BoundsChecks
{
    private const string MethodName = "SumFirst";

    /// <summary>Checks the reader's class and the listings captured from it.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(Readings)</c>.</param>
    /// <param name="asm">The exercise cell's <c>Lab.AsmAsync</c> result for SumFirst.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckNoRangeCheck(Type exercise, AsmReport? asm)
    {
        if (!ExerciseSteps.TryFindMethod<int>(exercise, "BoundsChecks.CheckNoRangeCheck(typeof(Readings), readingsAsm)", $"public static int {MethodName}(int[] samples, int count)", MethodName, [typeof(int[]), typeof(int)], out var method, out var hint))
        {
            return hint;
        }

        var unsafeCall = IlScanner.Read(method).Select(i => i.Called?.DeclaringType).FirstOrDefault(t => t?.FullName is "System.Runtime.CompilerServices.Unsafe" or "System.Runtime.InteropServices.MemoryMarshal");
        if (unsafeCall is not null)
        {
            return ExerciseResult.NotYet($"{MethodName} uses {unsafeCall.Name}, which switches the checks off instead of letting the JIT prove them unnecessary: a wrong count would read memory past the array. Keep to safe code.");
        }

        var samples = Enumerable.Range(1, 64).ToArray();
        var wrong = ExerciseSteps.FirstWrongAnswer(
            method,
            new (int[] Input, int Count, int Sum)[] { (samples, 32, 528), (samples, 64, 2080), (samples, 0, 0), ([7, -3, 5], 2, 4) },
            c => [c.Input.ToArray(), c.Count],
            c => c.Sum,
            (c, _) => $"{MethodName}(an array of {c.Input.Length}, {c.Count}) threw: it must return the sum of the first {c.Count} elements.",
            (c, answer, expected) => $"{MethodName}(an array of {c.Input.Length}, {c.Count}) returns {answer}; the sum of its first {c.Count} elements is {expected}.");
        if (wrong is not null)
        {
            return wrong;
        }

        if (Call(method, new[] { 1, 2, 3 }, 4) is { } silent)
        {
            return ExerciseResult.NotYet($"{MethodName}([1, 2, 3], 4) returns {silent} instead of throwing: a count past the end is a bug in the caller, and the original loop said so with an exception. Removing the checks must not hide it.");
        }

        return ReaderListings.Check(
            asm,
            exercise,
            MethodName,
            "readingsAsm",
            capturedByExerciseCell: true,
            (runtime, listing) => listing.BoundsChecks > 0
                ? ExerciseResult.NotYet($"on {runtime} {MethodName} still has {listing.BoundsChecks} bounds check(s), jumps to CORINFO_HELP_RNGCHKFAIL: the JIT cannot prove i < samples.Length from i < count. Give the loop a bound it knows, the length of something that is exactly count long.")
                : ExerciseResult.Pass($"{runtime} {listing.CodeSize} B"),
            sizes => $"{MethodName} gives the same sums, still throws past the end, and has no bounds check in its loop on any runtime ({sizes}): one check of count against the length, before the loop, does the work of one per element.");
    }

    // The reader's method's answer, or null when it threw.
    private static int? Call(MethodInfo method, int[] samples, int count) =>
        ReaderCode.TryCall(method, [samples.ToArray(), count], out int answer, out _) ? answer : null;
}
