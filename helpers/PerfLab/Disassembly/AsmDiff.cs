using System.Text.RegularExpressions;

namespace PerfLab.Disassembly;

/// <summary>Compares two listings of one method: aligned lines and the one-line summary.</summary>
internal static partial class AsmDiff
{
    /// <summary>
    /// "net9.0 -> net10.0: 103 -> 70 bytes, bounds checks 6 -> 0, allocations 2 -> 1": the size and
    /// every count that changed; "same code" when nothing did.
    /// </summary>
    /// <param name="leftName">The older runtime.</param>
    /// <param name="left">Its listing.</param>
    /// <param name="rightName">The newer runtime.</param>
    /// <param name="right">Its listing.</param>
    public static string Summary(string leftName, AsmListing left, string rightName, AsmListing right)
    {
        ArgumentNullException.ThrowIfNull(left);
        ArgumentNullException.ThrowIfNull(right);
        var parts = new List<string> { $"{left.CodeSize} -> {right.CodeSize} bytes" };
        void Count(string name, int before, int after)
        {
            if (before != after)
            {
                parts.Add($"{name} {before} -> {after}");
            }
        }

        Count("bounds checks", left.BoundsChecks, right.BoundsChecks);
        Count("allocations", left.Allocations, right.Allocations);
        Count("write barriers", left.WriteBarriers, right.WriteBarriers);
        Count("calls", left.Calls, right.Calls);
        Count("loops", left.Loops, right.Loops);
        if (left.Tier != right.Tier)
        {
            parts.Add($"tier {left.Tier} -> {right.Tier}");
        }

        var same = Align(left, right).All(l => !l.Changed);
        return $"{leftName} -> {rightName}: " + (same ? "same code" : string.Join(", ", parts));
    }

    /// <summary>The two listings aligned line by line (longest common subsequence of masked lines).</summary>
    /// <param name="left">The older listing.</param>
    /// <param name="right">The newer listing.</param>
    public static IReadOnlyList<DiffLine> Align(AsmListing left, AsmListing right)
    {
        ArgumentNullException.ThrowIfNull(left);
        ArgumentNullException.ThrowIfNull(right);
        return LineDiff.Align(left.Lines, right.Lines, Mask);
    }

    /// <summary>A line with per-process details masked: addresses, label numbering, hex spelling.</summary>
    /// <param name="line">An instruction or label.</param>
    public static string Mask(string line)
    {
        ArgumentNullException.ThrowIfNull(line);
        var masked = LabelPrefix().Replace(line, "G_M_");
        masked = Address().Replace(masked, "0xADDR");
        return HexNumber().Replace(masked, m => "0x" + m.Groups[1].Value.TrimStart('0').ToUpperInvariant());
    }

    [GeneratedRegex(@"G_M\d+_")]
    private static partial Regex LabelPrefix();

    // Absolute addresses (handles, statics, call targets) differ per process.
    [GeneratedRegex(@"0x[0-9A-Fa-f]{8,}")]
    private static partial Regex Address();

    [GeneratedRegex(@"0x([0-9A-Fa-f]+)")]
    private static partial Regex HexNumber();
}
