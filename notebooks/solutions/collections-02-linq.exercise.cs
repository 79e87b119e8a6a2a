using System.Linq;

public class FirstLarge
{
    private readonly List<int> _values = Enumerable.Range(0, 1000).ToList();

    [Benchmark]
    public int Find() => FirstAbove(_values);

    // First with the condition: .NET 9 and 10 walk the list as a span (no iterator, no boxed enumerator),
    // and the lambda captures nothing, so its delegate is created once and cached.
    public static int FirstAbove(List<int> values) => values.First(v => v > 500);
}
