public class Tally
{
    private static int s_calls;
    private readonly int[] _numbers = Enumerable.Range(1, 100).ToArray();

    public static int Calls => s_calls;

    [Benchmark]
    public int ScaleAll()
    {
        int total = 0;
        foreach (int value in _numbers)
        {
            total += Scale(value);
        }
        return total;
    }

    // Unchecked multiplication cannot throw, so the finally protected nothing; without it, Scale has no
    // exception handling and every runtime may inline it.
    public static int Scale(int value)
    {
        s_calls++;
        return value * 3;
    }
}
