// Three loops whose Tier0 code is many times slower than their Tier1 code: what a measurement
// taken before tiering settles gets wrong. Measured by bench/tiering/measure.cs.
public class TierProbe
{
    private readonly int[] _data = Enumerable.Range(0, 1000).ToArray();
    private readonly List<int> _list = Enumerable.Range(0, 1000).ToList();

    [Benchmark] public int ForeachArray() { var s = 0; foreach (var x in _data) s += x; return s; }
    [Benchmark] public int ForeachList() { var s = 0; foreach (var x in _list) s += x; return s; }
    [Benchmark] public int LinqSum() => _data.Where(x => (x & 1) == 0).Sum();
}
