// 20 cases (10 sizes x 2 methods), run in smoke mode on three runtimes by bench/measure.cs to measure how
// big the --html page of 60 results is and how fast Chromium opens it.
namespace Pages;

[MemoryDiagnoser]
public class TwentyCases
{
    private int[] _values = [];

    [Params(1, 2, 4, 8, 16, 32, 64, 128, 256, 512)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup() => _values = Enumerable.Range(0, Size).ToArray();

    [Benchmark]
    public int Loop()
    {
        var sum = 0;
        foreach (var value in _values)
        {
            sum += value;
        }

        return sum;
    }

    [Benchmark]
    public List<int> Copy() => new(_values);
}
