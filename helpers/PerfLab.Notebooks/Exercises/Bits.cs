using System.Collections;
using System.Reflection.Emit;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/collections/04-specialized.ipynb: count the set bits of a BitArray through its
/// storage (.NET 10's CollectionsMarshal.AsBytes) instead of bit by bit. The check counts arrays whose answer
/// the indexer gives, including lengths that are not whole words and an array whose last byte holds bits past
/// its Length (LeftShift leaves them), reads from the IL whether single bits are still read or arrays created,
/// and, outside smoke mode, the bytes the run measured.
/// </summary>
public static class Bits
{
    private const string MethodName = "CountOnes";

    /// <summary>Checks the reader's class and, when given, its run.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(SetBits)</c>.</param>
    /// <param name="run">The exercise cell's run on .NET 10.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckCountOnes(Type exercise, BenchmarkRun? run)
    {
        if (!ExerciseSteps.TryFindMethod<int>(exercise, "Bits.CheckCountOnes(typeof(SetBits), exercise)", $"public static int {MethodName}(BitArray bits)", MethodName, [typeof(BitArray)], out var method, out var hint))
        {
            return hint;
        }

        var wrong = ExerciseSteps.FirstWrongAnswer(
            method,
            Cases(),
            c => [c.Bits],
            c => Enumerable.Range(0, c.Bits.Length).Count(i => c.Bits[i]),
            (c, thrown) => $"{MethodName} threw {thrown.GetType().Name} for {c.What}: {thrown.Message}",
            (c, answer, expected) => $"{MethodName} returns {answer} for {c.What}; {expected} bits are set.{Hint(c.What, c.Bits)}");
        if (wrong is not null)
        {
            return wrong;
        }

        foreach (var instruction in IlScanner.Read(method))
        {
            if (instruction.Called is { DeclaringType: var type, Name: "get_Item" or "Get" } && type == typeof(BitArray))
            {
                return ExerciseResult.NotYet($"{MethodName} still reads single bits (BitArray.{instruction.Called.Name}). CollectionsMarshal.AsBytes(bits) gives you all of them as bytes.");
            }

            if (instruction.OpCode == OpCodes.Newarr || (instruction.OpCode == OpCodes.Newobj && instruction.Called?.DeclaringType is { IsValueType: false }))
            {
                return ExerciseResult.NotYet($"{MethodName} creates {(instruction.OpCode == OpCodes.Newarr ? "an array" : "an object")} on every call; AsBytes shows the bits where they are, without a copy.");
            }
        }

        return MeasuredBytes.Check(run, ["net10.0"], "the counts are right and no single bit is read", "the counts are right, no single bit is read", $"Look for an array, a copy or a lambda in {MethodName} or in a method it calls.");
    }

    private static string Hint(string what, BitArray bits) => what.Contains("shifted", StringComparison.Ordinal)
        ? " The last byte can hold bits past Length (LeftShift moves them there and leaves them): count only the first Length % 8 bits of it."
        : bits.Length % 64 != 0 ? " Its bytes are not a whole number of 8-byte words: count the bytes left over too." : "";

    private static IEnumerable<(string What, BitArray Bits)> Cases()
    {
        var random = new Random(2026);
        foreach (var length in new[] { 0, 1, 7, 8, 9, 63, 64, 65, 1000 })
        {
            var bytes = new byte[(length + 7) / 8];
            random.NextBytes(bytes);
            var bits = new BitArray(bytes) { Length = length };
            yield return ($"{length} random bits", bits);
        }

        yield return ("1,001 bits all set", new BitArray(1001, true));

        var shifted = new BitArray(13, true);
        shifted.LeftShift(3);
        yield return ("13 set bits shifted left by 3", shifted);
    }
}
