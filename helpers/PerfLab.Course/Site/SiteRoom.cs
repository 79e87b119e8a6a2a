using System.Globalization;
using PerfLab.Course.Room;
using PerfLab.Results;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Course.Site;

/// <summary>
/// A room's export beside the reference run on the course site (`perflab site --room FILE`): under each benchmark cell a
/// room ran, one note with every laptop's ratios for that cell's code (each cell's latest run of each laptop), or that
/// it ran it in smoke mode, without numbers. Every string a laptop sent is escaped.
/// </summary>
internal sealed class SiteRoom
{
    private readonly Dictionary<string, List<(string Laptop, BenchmarkRun Run)>> _byCode = new(StringComparer.Ordinal);

    private SiteRoom(string file, IReadOnlyList<RoomExportMachine> laptops)
    {
        File = file;
        Laptops = laptops.Count;
        foreach (var laptop in laptops)
        {
            foreach (var run in laptop.Runs.Where(r => r.Code is not null))
            {
                if (!_byCode.TryGetValue(run.Code!, out var list))
                {
                    _byCode[run.Code!] = list = [];
                }

                list.Add((laptop.Name, run.Run));
            }
        }
    }

    /// <summary>The export's full path.</summary>
    public string File { get; }

    /// <summary>How many laptops it holds.</summary>
    public int Laptops { get; }

    /// <summary>How many benchmark calls of the site had a room note.</summary>
    public int Noted { get; private set; }

    /// <summary>The export in <paramref name="file"/>, or null when none was given.</summary>
    /// <exception cref="PerfLabException">The file cannot be read as a room's export.</exception>
    public static SiteRoom? Read(string? file) => file is null ? null : new SiteRoom(Path.GetFullPath(file), RoomExport.Read(file));

    /// <summary>The note for a call that measures <paramref name="code"/>, HTML; null when the room did not run it.</summary>
    /// <param name="code">The content key of the call's code.</param>
    public string? Note(string code)
    {
        if (!_byCode.TryGetValue(code, out var runs))
        {
            return null;
        }

        Noted++;
        var series = new List<string>();
        var smoke = new List<string>();
        foreach (var group in runs.SelectMany(r => RoomSummary.Ratios(r.Run).Select(ratio => (r.Laptop, Ratio: ratio)))
            .GroupBy(x => $"{x.Ratio.Case} on {x.Ratio.Runtime} / {x.Ratio.Baseline}", StringComparer.Ordinal))
        {
            series.Add($"{Escape(group.Key)}: " + string.Join(", ", group.Select(x => $"{Escape(x.Laptop)} {Number(x.Ratio)}")));
        }

        smoke.AddRange(runs.Where(r => RoomSummary.Ratios(r.Run).Count == 0).Select(r => Escape(r.Laptop)));
        var laptops = runs.Select(r => r.Laptop).Distinct(StringComparer.Ordinal).Count();
        return $"In the room ({Escape(Path.GetFileName(File))}), {laptops} {(laptops == 1 ? "laptop" : "laptops")} ran this code"
            + (series.Count == 0 ? "" : ": " + string.Join("; ", series))
            + (smoke.Count == 0 ? "." : $"{(series.Count == 0 ? ":" : ";")} without numbers (smoke mode): {string.Join(", ", smoke)}.");
    }

    private static string Number(RoomRatio ratio) => ratio.Low is { } low && ratio.High is { } high
        ? string.Create(CultureInfo.InvariantCulture, $"{ratio.Ratio:0.00} ({low:0.00}–{high:0.00})")
        : ratio.Ratio.ToString("0.00", CultureInfo.InvariantCulture);
}
