namespace PerfLab;

/// <summary>One row of a side-by-side comparison.</summary>
/// <param name="Left">The line of the older side, or null where it has none.</param>
/// <param name="Right">The line of the newer side, or null where it has none.</param>
/// <param name="Changed">True unless both sides hold the same line (as compared).</param>
internal sealed record DiffLine(string? Left, string? Right, bool Changed);

/// <summary>
/// Two texts aligned line by line (longest common subsequence), what both side-by-side views show:
/// the JIT's listings (AsmDiff) and the regex generator's C# (RegexSourceDiff).
/// </summary>
internal static class LineDiff
{
    /// <summary>The lines aligned: common lines side by side, the others on their own side.</summary>
    /// <param name="left">The older lines.</param>
    /// <param name="right">The newer lines.</param>
    /// <param name="compareAs">What a line is compared as (e.g. with addresses masked); null compares the text.</param>
    /// <param name="pairChanges">
    /// Put the removed and added lines of one change on the same rows (old beside new), instead of each
    /// on rows of its own; reads better when a change rewrites lines rather than inserting them.
    /// </param>
    public static IReadOnlyList<DiffLine> Align(IReadOnlyList<string> left, IReadOnlyList<string> right, Func<string, string>? compareAs = null, bool pairChanges = false)
    {
        ArgumentNullException.ThrowIfNull(left);
        ArgumentNullException.ThrowIfNull(right);
        var ma = compareAs is null ? left.ToArray() : left.Select(compareAs).ToArray();
        var mb = compareAs is null ? right.ToArray() : right.Select(compareAs).ToArray();
        var lcs = new int[ma.Length + 1, mb.Length + 1];
        for (var i = ma.Length - 1; i >= 0; i--)
        {
            for (var j = mb.Length - 1; j >= 0; j--)
            {
                lcs[i, j] = string.Equals(ma[i], mb[j], StringComparison.Ordinal) ? lcs[i + 1, j + 1] + 1 : Math.Max(lcs[i + 1, j], lcs[i, j + 1]);
            }
        }

        var rows = new List<DiffLine>();
        int x = 0, y = 0;
        while (x < ma.Length || y < mb.Length)
        {
            if (x < ma.Length && y < mb.Length && string.Equals(ma[x], mb[y], StringComparison.Ordinal))
            {
                rows.Add(new DiffLine(left[x++], right[y++], false));
            }
            else if (y < mb.Length && (x == ma.Length || lcs[x, y + 1] >= lcs[x + 1, y]))
            {
                rows.Add(new DiffLine(null, right[y++], true));
            }
            else
            {
                rows.Add(new DiffLine(left[x++], null, true));
            }
        }

        return pairChanges ? Paired(rows) : rows;
    }

    /// <summary>How many lines changed: for each change, the larger of its removed and added lines, summed (a rewritten line counts once).</summary>
    /// <param name="rows">An alignment.</param>
    public static int ChangedLines(IReadOnlyList<DiffLine> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        int total = 0, removed = 0, added = 0;
        foreach (var row in rows)
        {
            if (!row.Changed)
            {
                total += Math.Max(removed, added);
                (removed, added) = (0, 0);
                continue;
            }

            removed += row.Left is null ? 0 : 1;
            added += row.Right is null ? 0 : 1;
        }

        return total + Math.Max(removed, added);
    }

    // Each run of changed rows becomes its old lines beside its new lines, in order.
    private static List<DiffLine> Paired(List<DiffLine> rows)
    {
        var paired = new List<DiffLine>(rows.Count);
        for (var i = 0; i < rows.Count;)
        {
            if (!rows[i].Changed)
            {
                paired.Add(rows[i++]);
                continue;
            }

            var olds = new List<string>();
            var news = new List<string>();
            for (; i < rows.Count && rows[i].Changed; i++)
            {
                if (rows[i].Left is { } old)
                {
                    olds.Add(old);
                }

                if (rows[i].Right is { } @new)
                {
                    news.Add(@new);
                }
            }

            for (var k = 0; k < Math.Max(olds.Count, news.Count); k++)
            {
                paired.Add(new DiffLine(k < olds.Count ? olds[k] : null, k < news.Count ? news[k] : null, true));
            }
        }

        return paired;
    }
}
