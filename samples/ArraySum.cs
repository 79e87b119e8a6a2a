// A first benchmark: summing an array three ways. Used by the README's main command.
using BenchmarkDotNet.Attributes;

namespace Samples;

[MemoryDiagnoser]
public class ArraySum
{
    private int[] _values = [];

    [Params(1000)]
    public int Length { get; set; }

    [GlobalSetup]
    public void Setup() => _values = Enumerable.Range(0, Length).ToArray();

    [Benchmark]
    public int ForLoop()
    {
        var sum = 0;
        for (var i = 0; i < _values.Length; i++)
        {
            sum += _values[i];
        }

        return sum;
    }

    [Benchmark]
    public int LinqSum() => _values.Sum();
}
