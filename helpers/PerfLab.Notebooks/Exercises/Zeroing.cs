using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using PerfLab.Disassembly;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/jit/08-tier0-inlining-and-stores.ipynb: a method that builds a 256-byte table with
/// stackalloc, writing every entry before it reads any, stops paying for the zeroing C# asks of every local. The check
/// calls the reader's method on every byte value and several keys, each time right after filling the stack below it
/// with a pattern, so a table entry read before it is written shows up as a wrong byte; then it reads the reader's own
/// listings on every runtime: no stores of a zeroed register of 64 bytes or more, and no table on the heap. Listings do
/// not depend on the mode.
/// </summary>
public static partial class Zeroing
{
    private const string MethodName = "Scramble";

    // What the stack below the check holds when the reader's method starts: a byte no table entry of the tried keys is.
    private const byte StackPattern = 0xA5;

    private static readonly byte[] Keys = [0x5A, 0x00, 0xFF, 0x13];

    /// <summary>Checks the reader's class and the listings captured from it.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(Scrambler)</c>.</param>
    /// <param name="asm">The <c>Lab.AsmAsync</c> result for Scramble.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckNoZeroing(Type exercise, AsmReport? asm)
    {
        if (!ExerciseSteps.TryFindMethod<int>(exercise, "Zeroing.CheckNoZeroing(typeof(Scrambler), scramblerAsm)", $"public static int {MethodName}(byte[] input, byte[] output, byte key)", MethodName, [typeof(byte[]), typeof(byte[]), typeof(byte)], out var method, out var hint))
        {
            return hint;
        }

        // A delegate, not MethodInfo.Invoke: the reader's frame then sits right below the check's, where the pattern is.
        var scramble = method.CreateDelegate<Func<byte[], byte[], byte, int>>();
        var input = new byte[256];
        for (var b = 0; b < input.Length; b++)
        {
            input[b] = (byte)b;
        }

        foreach (var key in Keys)
        {
            var output = new byte[input.Length];
            int sum;
            try
            {
                FillStackBelow();
                sum = scramble(input, output, key);
            }
            catch (Exception thrown)
            {
                return ExerciseResult.NotYet($"{MethodName}(every byte 0 to 255, key 0x{key:X2}) threw {thrown.GetType().Name}: {thrown.Message}");
            }

            for (var b = 0; b < input.Length; b++)
            {
                if (output[b] != Entry(b, key))
                {
                    return ExerciseResult.NotYet(
                        $"{MethodName}(every byte 0 to 255, key 0x{key:X2}) writes 0x{output[b]:X2} for byte {b}, where the table's rule gives 0x{Entry(b, key):X2}." +
                        (output[b] == StackPattern ? $" 0x{StackPattern:X2} is what the check left on the stack just before the call: the table was read where it was never written. Without the zeroing, an entry you do not write holds whatever the stack held." : " Keep the rule that builds the table."));
                }
            }

            var expected = input.Sum(b => Entry(b, key));
            if (sum != expected)
            {
                return ExerciseResult.NotYet($"{MethodName}(every byte 0 to 255, key 0x{key:X2}) writes the right bytes but returns {sum}; their sum is {expected}.");
            }
        }

        return ReaderListings.Check(
            asm,
            exercise,
            MethodName,
            "scramblerAsm",
            capturedByExerciseCell: false,
            Unzeroed,
            found => $"{MethodName} still maps every byte right, and no runtime zeroes its table first ({found}).");
    }

    /// <summary>
    /// Bytes a listing zeroes with stores of a register it cleared first (x64: an xor of a vector register with itself,
    /// then xmmword/ymmword/zmmword stores of it; Arm64: stp/str of xzr, or of a q register cleared by movi #0).
    /// Zeroing a 256-byte table takes 256; a method that zeroes nothing but a slot or two, 16 or less.
    /// </summary>
    /// <param name="listing">One runtime's listing of a method.</param>
    internal static int ZeroedBytes(AsmListing listing)
    {
        var cleared = new HashSet<string>(StringComparer.Ordinal);
        var bytes = 0;
        foreach (var line in listing.Instructions)
        {
            if (ClearedVector().Match(line) is { Success: true } clear && clear.Groups[1].Value == clear.Groups[2].Value
                && (!clear.Groups[3].Success || clear.Groups[3].Value == clear.Groups[1].Value))
            {
                cleared.Add(clear.Groups[1].Value);
            }
            else if (ClearedArmVector().Match(line) is { Success: true } movi)
            {
                cleared.Add(movi.Groups[1].Value);
            }
            else if (VectorStore().Match(line) is { Success: true } store && cleared.Contains(store.Groups[3].Value))
            {
                bytes += store.Groups[1].Value switch { "zmm" => 64, "ymm" => 32, _ => 16 };
            }
            else if (ArmZeroStore().Match(line) is { Success: true } arm)
            {
                bytes += arm.Groups[1].Value == "stp" ? 16 : 8;
            }
            else if (ArmVectorPairStore().Match(line) is { Success: true } pair && cleared.Contains(pair.Groups[1].Value) && cleared.Contains(pair.Groups[2].Value))
            {
                bytes += 32;
            }
            else if (line.StartsWith("rep stos", StringComparison.Ordinal) || (bytes > 0 && BackwardJump().IsMatch(line)))
            {
                // A string store or a loop around the stores (.NET 8 zeroes a frame's struct in a loop): more than its stores show.
                bytes += 64;
            }
        }

        return bytes;
    }

    // The table's rule in the exercise: entry i for a key.
    private static byte Entry(int i, byte key) => (byte)(((i ^ key) * 7) + key);

    private static ExerciseResult Unzeroed(string runtime, AsmListing listing)
    {
        if (listing.Allocations > 0)
        {
            return ExerciseResult.NotYet($"on {runtime} {MethodName} allocates ({string.Join(", ", listing.Helpers.Where(h => h.StartsWith("CORINFO_HELP_NEW", StringComparison.Ordinal)))}): the table moved to the heap, which the GC zeroes for you. Keep it on the stack with stackalloc.");
        }

        var zeroed = ZeroedBytes(listing);
        return zeroed >= 64
            ? ExerciseResult.NotYet($"on {runtime} {MethodName} still zeroes {zeroed} bytes of stack before its own loop writes the same table. C# asks the JIT to zero every local and stackalloc of a method (.locals init); one attribute lets a method opt out, and it belongs on the method that allocates the table.")
            : ExerciseResult.Pass($"{runtime} {listing.CodeSize} B");
    }

    // Writes the pattern into the stack this method's caller will use next: the reader's frame, called right after, starts there.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void FillStackBelow()
    {
        Span<byte> below = stackalloc byte[16 * 1024];
        below.Fill(StackPattern);
        GC.KeepAlive(below[^1]);
    }

    // vxorps/vpxor/vpxord/xorps xmmN, xmmN(, xmmN) (x64): register N is cleared, whatever width is named (the JIT
    // clears ymm0 and then stores zmm0). Groups: the registers' numbers.
    [GeneratedRegex(@"^v?p?xor(?:ps|pd|d|q)?\s+[xyz]mm(\d+),\s*[xyz]mm(\d+)(?:,\s*[xyz]mm(\d+))?$")]
    private static partial Regex ClearedVector();

    // movi vN.16b, #0 (Arm64): the q register N is cleared.
    [GeneratedRegex(@"^movi\s+v(\d+)\.\d+[bhsd],\s*#0\b")]
    private static partial Regex ClearedArmVector();

    // A store of a vector register to memory: vmovdqu32 zmmword ptr [rsp+0x40], zmm0.
    [GeneratedRegex(@"^v?mov\w*\s+([xyz]mm)word ptr \[[^\]]+\],\s*([xyz]mm)(\d+)$")]
    private static partial Regex VectorStore();

    // A jump back a few instructions: jne SHORT -5 instr.
    [GeneratedRegex(@"^j\w+\s+(?:SHORT\s+)?-\d+ instr")]
    private static partial Regex BackwardJump();

    // Arm64 stores of the zero register: stp xzr, xzr, [...] or str xzr, [...].
    [GeneratedRegex(@"^(stp|str)\s+xzr\b")]
    private static partial Regex ArmZeroStore();

    // Arm64 pair store of two q registers: stp q16, q16, [...].
    [GeneratedRegex(@"^stp\s+q(\d+),\s*q(\d+),")]
    private static partial Regex ArmVectorPairStore();
}
