using System.Globalization;

public class MeterLog
{
    // 500 readings from a meter that drops out every 25th time.
    private readonly string[] _lines = Enumerable.Range(0, 500)
        .Select(i => i % 25 == 0 ? "ERR no signal" : (i * 13 % 400).ToString(CultureInfo.InvariantCulture))
        .ToArray();

    [Benchmark]
    public long Total() => SumReadings(_lines);

    // TryParse with the same style and culture int.Parse(line, culture) uses: the same lines are readings, and a
    // bad one returns false instead of throwing.
    public static long SumReadings(string[] lines)
    {
        long total = 0;
        foreach (string line in lines)
        {
            if (int.TryParse(line, NumberStyles.Integer, CultureInfo.InvariantCulture, out int reading))
            {
                total += reading;
            }
        }

        return total;
    }
}
