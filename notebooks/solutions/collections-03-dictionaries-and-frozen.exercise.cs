public class OrderTotal
{
    // Cents per item.
    public static readonly Dictionary<string, int> Prices = new(StringComparer.Ordinal)
    {
        ["apple"] = 30, ["pear"] = 45, ["fig"] = 120, ["plum"] = 25, ["kiwi"] = 60,
    };

    private readonly string _order = "apple=3;fig=1;plum=12;kiwi=2;apple=1";

    [Benchmark]
    public int Total() => TotalOf(_order);

    // The order stays one span; each pair is a slice of it, split at '=' by index. The price list is searched
    // with the product's slice through an alternate lookup (StringComparer.Ordinal supports ReadOnlySpan<char>),
    // and int.Parse reads the quantity's slice: no string, no array.
    public static int TotalOf(string order)
    {
        var priceOf = Prices.GetAlternateLookup<ReadOnlySpan<char>>();
        ReadOnlySpan<char> text = order;
        int total = 0;
        foreach (Range pair in text.Split(';'))
        {
            ReadOnlySpan<char> item = text[pair];
            int equals = item.IndexOf('=');
            total += priceOf[item[..equals]] * int.Parse(item[(equals + 1)..]);
        }

        return total;
    }
}
