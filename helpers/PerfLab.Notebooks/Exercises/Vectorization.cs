using PerfLab.Disassembly;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/jit/07-vectorization.ipynb: count a byte 16 at a time. The check calls the
/// reader's method on texts of every length from 0 to 100 (so every leftover count after the last full
/// block is tried), refuses a call to the library's Count (read from the IL: .NET 8 inlines it, vector
/// compare and all), and reads the reader's own listings on .NET 8, 9 and 10: each must compare bytes with
/// a vector instruction. Listings do not depend on the mode.
/// </summary>
public static class Vectorization
{
    private const string MethodName = "CountSpaces";

    // Byte-lane equality: SSE2/AVX2 (vpcmpeqb), AVX-512 compares into a mask (vpcmpeqb k1 / vpcmpb / vpcmpub), Arm64 (cmeq).
    private static readonly string[] VectorCompares = ["vpcmpeqb", "pcmpeqb", "vpcmpb", "vpcmpub", "cmeq"];

    /// <summary>Checks the reader's class and the listings captured from it.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(Spaces)</c>.</param>
    /// <param name="asm">The <c>Lab.AsmAsync</c> result for CountSpaces.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckVectorCount(Type exercise, AsmReport? asm)
    {
        if (!ExerciseSteps.TryFindMethod<int>(exercise, "Vectorization.CheckVectorCount(typeof(Spaces), spacesAsm)", $"public static int {MethodName}(byte[] text)", MethodName, [typeof(byte[])], out var method, out var hint))
        {
            return hint;
        }

        // The library's Count is vectorized inside; on .NET 8 it is even inlined, vector compare and all.
        if (IlScanner.Read(method).Any(i => i.Called is { Name: "Count", DeclaringType.FullName: "System.MemoryExtensions" or "System.Linq.Enumerable" }))
        {
            return ExerciseResult.NotYet($"{MethodName} calls the library to count. That is what real code should do (it is vectorized inside); for this exercise, write the Vector128 loop yourself.");
        }

        var wrong = ExerciseSteps.FirstWrongAnswer(
            method,
            Texts(),
            text => [text],
            text => text.Count(b => b == (byte)' '),
            (text, thrown) => $"{MethodName} on a text of {text.Length} bytes threw {thrown.GetType().Name}: {thrown.Message}",
            (text, answer, expected) =>
                $"{MethodName} on a text of {text.Length} bytes with {expected} spaces returns {answer}." +
                (text.Length % 16 != 0 && text.Length >= 16 ? $" After the last full block of 16, {text.Length % 16} byte(s) are left: count them one at a time." : ""));
        if (wrong is not null)
        {
            return wrong;
        }

        return ReaderListings.Check(asm, exercise, MethodName, "spacesAsm", capturedByExerciseCell: false, VectorCompare, found => $"{MethodName} counts right for every length from 0 to 100 and compares 16 bytes per instruction on every runtime ({found}).");
    }

    // Seeded: the same texts on every run, one of each length from 0 to 100. About one byte in four is a space, some
    // runs of them, the rest any byte.
    private static IEnumerable<byte[]> Texts()
    {
        var random = new Random(7);
        for (var length = 0; length <= 100; length++)
        {
            var text = new byte[length];
            for (var i = 0; i < length; i++)
            {
                text[i] = random.Next(4) == 0 ? (byte)' ' : (byte)random.Next(256);
            }

            yield return text;
        }
    }

    private static ExerciseResult VectorCompare(string runtime, AsmListing listing) =>
        listing.Instructions.Select(l => l.Split(' ', 2)[0]).FirstOrDefault(op => VectorCompares.Contains(op)) is { } compare
            ? ExerciseResult.Pass($"{runtime} {compare}")
            : ExerciseResult.NotYet($"on {runtime} {MethodName} has no vector compare: it still looks at one byte per step. Load 16 bytes with Vector128.Create(text, i) and compare them with a vector of spaces in one Vector128.Equals.");
}
