using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;

public class Spaces
{
    private readonly byte[] _text = System.Text.Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("count the gaps in this line ", 40)));

    [Benchmark]
    public int Count() => CountSpaces(_text);

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static int CountSpaces(byte[] text)
    {
        Vector128<byte> spaces = Vector128.Create((byte)' ');
        int count = 0;
        int i = 0;
        // One compare per 16 bytes: a matching lane is 0xFF, its top bit one bit of the mask.
        for (; i <= text.Length - Vector128<byte>.Count; i += Vector128<byte>.Count)
        {
            uint matches = Vector128.Equals(Vector128.Create(text, i), spaces).ExtractMostSignificantBits();
            count += BitOperations.PopCount(matches);
        }
        // Fewer than 16 bytes left: one at a time.
        for (; i < text.Length; i++)
        {
            if (text[i] == (byte)' ')
            {
                count++;
            }
        }
        return count;
    }
}
