using System.Globalization;

namespace PerfLab.Results;

/// <summary>Number formatting shared by every view: units that scale, BenchmarkDotNet's conventions.</summary>
public static class QuantityText
{
    /// <summary>A duration given in nanoseconds, in ns / μs / ms / s with 4 significant digits.</summary>
    /// <param name="nanoseconds">The value.</param>
    public static string Time(double nanoseconds)
    {
        var (value, unit) = Math.Abs(nanoseconds) switch
        {
            >= 1e9 => (nanoseconds / 1e9, "s"),
            >= 1e6 => (nanoseconds / 1e6, "ms"),
            >= 1e3 => (nanoseconds / 1e3, "μs"),
            _ => (nanoseconds, "ns"),
        };
        return Number(value) + " " + unit;
    }

    /// <summary>A byte count in B / KB / MB (1 KB = 1024 B, as BenchmarkDotNet shows it).</summary>
    /// <param name="bytes">The value; null prints "-".</param>
    public static string Bytes(long? bytes) => bytes switch
    {
        null => "-",
        0 => "-",
        >= 1024 * 1024 => Number(bytes.Value / (1024.0 * 1024.0)) + " MB",
        >= 1024 => Number(bytes.Value / 1024.0) + " KB",
        _ => bytes.Value.ToString(CultureInfo.InvariantCulture) + " B",
    };

    /// <summary>A ratio with two decimals; "?" when there is no baseline to compare with.</summary>
    /// <param name="ratio">The value.</param>
    public static string Ratio(double? ratio) => ratio is { } r ? r.ToString(r >= 100 ? "F0" : "F2", CultureInfo.InvariantCulture) : "?";

    /// <summary>Collections per 1000 operations; "-" when none.</summary>
    /// <param name="value">The value.</param>
    public static string Collections(double? value) => value is { } v && v > 0 ? v.ToString("0.0000", CultureInfo.InvariantCulture) : "-";

    /// <summary>Four significant digits, at most four decimals.</summary>
    /// <param name="value">The value.</param>
    public static string Number(double value)
    {
        var magnitude = value == 0 ? 0 : (int)Math.Floor(Math.Log10(Math.Abs(value)));
        var decimals = Math.Clamp(3 - magnitude, 0, 4);
        return value.ToString("F" + decimals.ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture);
    }
}
