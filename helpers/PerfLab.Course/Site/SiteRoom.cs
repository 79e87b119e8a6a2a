using PerfLab.Course.Room;
using PerfLab.Results;

namespace PerfLab.Course.Site;

/// <summary>
/// A room's export beside the reference run on the course site (`perflab site --room FILE`): under each benchmark cell a
/// room ran, one note with every laptop's ratios for that cell's code (each cell's latest run of each laptop), or that
/// it ran it in smoke mode, without numbers (<see cref="RoomNote"/>; the page escapes every string a laptop sent).
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

    /// <summary>The note for a call that measures <paramref name="code"/>; null when the room did not run it.</summary>
    /// <param name="code">The content key of the call's code.</param>
    public RoomNote? Note(string code)
    {
        if (!_byCode.TryGetValue(code, out var runs))
        {
            return null;
        }

        Noted++;
        var series = runs.SelectMany(r => RoomSummary.Ratios(r.Run).Select(ratio => (r.Laptop, Ratio: ratio)))
            .GroupBy(x => $"{x.Ratio.Case} on {x.Ratio.Runtime} / {x.Ratio.Baseline}", StringComparer.Ordinal)
            .Select(group => new RoomSeries(group.Key, [.. group]))
            .ToArray();
        var smoke = runs.Where(r => RoomSummary.Ratios(r.Run).Count == 0).Select(r => r.Laptop).ToArray();
        var laptops = runs.Select(r => r.Laptop).Distinct(StringComparer.Ordinal).Count();
        return new RoomNote(Path.GetFileName(File), laptops, series, smoke);
    }
}
