namespace PerfLab.Inputs;

/// <summary>Weighted draws over a table of cumulative weights (ascending, last entry = the total).</summary>
internal static class CumulativeWeights
{
    /// <summary>The first index whose cumulative weight is above <paramref name="draw"/> (a number in [0, total)).</summary>
    public static int IndexOf(long[] cumulative, long draw)
    {
        int low = 0, high = cumulative.Length - 1;
        while (low < high)
        {
            var middle = (low + high) / 2;
            if (cumulative[middle] > draw)
            {
                high = middle;
            }
            else
            {
                low = middle + 1;
            }
        }

        return low;
    }
}
