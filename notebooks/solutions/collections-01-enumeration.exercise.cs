public class ScoreTotal
{
    private readonly List<int> _scores = Enumerable.Range(1, 1000).ToList();

    [Benchmark]
    public int Total() => AddUp(_scores);

    // List<int> as the parameter type: foreach gets List<int>.Enumerator, a struct, on every runtime.
    private static int AddUp(List<int> values)
    {
        int total = 0;
        foreach (int value in values)
            total += value;
        return total;
    }
}
