using System.Collections;
using System.Numerics;
using System.Runtime.InteropServices;

public class SetBits
{
    private readonly BitArray _flags = EveryThird(10_000);

    [Benchmark]
    public int Count() => CountOnes(_flags);

    // The storage as bytes (no copy): whole 8-byte words first, then the whole bytes left over, then the
    // first Length % 8 bits of the last byte; its other bits may be left over from a shift.
    public static int CountOnes(BitArray bits)
    {
        ReadOnlySpan<byte> storage = CollectionsMarshal.AsBytes(bits);
        int fullBytes = bits.Length / 8;
        ReadOnlySpan<ulong> words = MemoryMarshal.Cast<byte, ulong>(storage[..fullBytes]);
        int ones = 0;
        foreach (ulong word in words)
        {
            ones += BitOperations.PopCount(word);
        }

        foreach (byte rest in storage[(words.Length * sizeof(ulong))..fullBytes])
        {
            ones += BitOperations.PopCount(rest);
        }

        int tailBits = bits.Length % 8;
        if (tailBits != 0)
        {
            ones += BitOperations.PopCount((uint)(storage[fullBytes] & ((1 << tailBits) - 1)));
        }

        return ones;
    }

    private static BitArray EveryThird(int length)
    {
        var bits = new BitArray(length);
        for (int i = 0; i < length; i += 3)
        {
            bits[i] = true;
        }

        return bits;
    }
}
