public class Scrambler
{
    private readonly byte[] _message = Enumerable.Range(0, 64).Select(i => (byte)(i * 37 + 11)).ToArray();
    private readonly byte[] _output = new byte[64];

    [Benchmark]
    public int ScrambleMessage() => Scramble(_message, _output, 0x5A);

    // Maps every byte of input through a table built for the key, into output; returns the sum of what it wrote.
    // The loop below writes all 256 entries before any is read, so the zeroing C# asks for is wasted work:
    // SkipLocalsInit on this method (the one that allocates the table) removes it on every runtime.
    [System.Runtime.CompilerServices.SkipLocalsInit]
    public static int Scramble(byte[] input, byte[] output, byte key)
    {
        Span<byte> table = stackalloc byte[256];
        for (int i = 0; i < table.Length; i++)
        {
            table[i] = (byte)((i ^ key) * 7 + key);
        }

        int sum = 0;
        for (int i = 0; i < input.Length; i++)
        {
            byte mapped = table[input[i]];
            output[i] = mapped;
            sum += mapped;
        }
        return sum;
    }
}
