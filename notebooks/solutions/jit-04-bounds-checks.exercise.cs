using System.Runtime.CompilerServices;

public class Readings
{
    private readonly int[] _samples = Enumerable.Range(1, 64).ToArray();

    [Benchmark]
    public int FirstHalf() => SumFirst(_samples, 32);

    // A span of exactly count elements: AsSpan compares count with the length once (and throws past the
    // end), and a loop over the span's own length needs no check per element.
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static int SumFirst(int[] samples, int count)
    {
        int total = 0;
        foreach (int sample in samples.AsSpan(0, count))
        {
            total += sample;
        }
        return total;
    }
}
