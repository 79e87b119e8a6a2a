// Library-heavy cases of 1 ns to tens of microseconds, none of them in the course: what a quick launch measures
// when most of the time is spent in the base library's code, whose tiering the launch does not drive directly.
// Read by bench/launches/measure.cs.
using System.Globalization;
using System.Numerics;
using System.Text.RegularExpressions;

public class LibraryCalls
{
    private readonly string[] _stamps = Enumerable.Range(0, 64).Select(i => (1_000 + i * 37).ToString(CultureInfo.InvariantCulture)).ToArray();
    private readonly double[] _prices = Enumerable.Range(1, 32).Select(i => i * 3.25).ToArray();
    private readonly BigInteger _seed = BigInteger.Pow(7, 300);
    private readonly (string Shelf, int Count)[] _stock = Enumerable.Range(0, 500).Select(i => ("shelf" + (i % 23), i % 17)).ToArray();
    private readonly Regex _ticket = new(@"^[A-Z]{3}-\d{4}$", RegexOptions.Compiled);
    private readonly string[] _tickets = ["ABC-1234", "abc-1234", "XYZ-98765", "QRS-0001"];
    private readonly Dictionary<string, int> _shelves = Enumerable.Range(0, 200).ToDictionary(i => "shelf" + i, i => i);
    private int _next;

    [Benchmark(Baseline = true)]
    public int ParseStamp() => int.Parse(_stamps[_next++ & 63], CultureInfo.InvariantCulture);

    [Benchmark]
    public string FormatPrice() => _prices[_next++ & 31].ToString("F2", CultureInfo.InvariantCulture);

    [Benchmark]
    public int BigSquareBits() => (int)(_seed * _seed).GetBitLength();

    [Benchmark]
    public int CountPerShelf() => _stock.GroupBy(s => s.Shelf).Select(g => g.Sum(s => s.Count)).Max();

    [Benchmark]
    public int ValidTickets()
    {
        var valid = 0;
        foreach (var ticket in _tickets)
        {
            valid += _ticket.IsMatch(ticket) ? 1 : 0;
        }

        return valid;
    }

    [Benchmark]
    public int ShelfLookup() => _shelves.TryGetValue("shelf" + (_next++ % 200), out var n) ? n : -1;

    [Benchmark]
    public string JoinShelves() => string.Join(';', _stamps.AsSpan(0, 16).ToArray());
}
