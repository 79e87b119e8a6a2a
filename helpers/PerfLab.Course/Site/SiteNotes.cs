using PerfLab.Contract;
using PerfLab.Course.Room;

namespace PerfLab.Course.Site;

/// <summary>A one-line note the site puts under a code cell: what a page says about where its outputs come from.</summary>
internal abstract record SiteNote;

/// <summary>The cell's results are the reference run's, made on <paramref name="StartedAt"/> in <paramref name="Mode"/>.</summary>
internal sealed record ReferenceResultNote(DateTimeOffset StartedAt, BenchmarkMode Mode) : SiteNote;

/// <summary>The reference run has not measured the cell's code, <paramref name="Type"/> as the cell writes it: no numbers.</summary>
internal sealed record MissingResultNote(string Type) : SiteNote;

/// <summary>The cell reads the results of cell <paramref name="Cell"/> (0-based), which the reference run has not measured.</summary>
internal sealed record UsesMissingNote(int Cell) : SiteNote;

/// <summary>The exercise, shown and not run; its solution's page is <paramref name="SolutionPage"/> (from the site's root).</summary>
internal sealed record ExerciseNote(string SolutionPage, string SolutionName) : SiteNote;

/// <summary>The exercise's check, shown and not run.</summary>
internal sealed record ExerciseCheckNote : SiteNote;

/// <summary>
/// A room's laptops ran the cell's code (<see cref="SiteRoom"/>): each case's ratios by laptop, and the laptops that ran
/// it in smoke mode, without numbers. It follows the cell's own note (<see cref="CellNotes.AddRoom"/>).
/// </summary>
internal sealed record RoomNote(string Export, int Laptops, IReadOnlyList<RoomSeries> Series, IReadOnlyList<string> SmokeLaptops);

/// <summary>One case on one runtime against its baseline ("Case on net10.0 / net8.0"), each laptop's ratio.</summary>
internal sealed record RoomSeries(string Name, IReadOnlyList<(string Laptop, RoomRatio Ratio)> Ratios);

/// <summary>
/// What a notebook's page says under its code cells: one note per cell, the room's notes after it, and the cells whose
/// outputs it leaves out (their note says why). Data only: <see cref="Pages.SitePages"/> writes the markup.
/// </summary>
internal sealed class CellNotes
{
    private readonly Dictionary<int, SiteNote> _main = [];
    private readonly Dictionary<int, List<RoomNote>> _room = [];
    private readonly HashSet<int> _hidden = [];

    /// <summary>Cells whose outputs the page leaves out.</summary>
    public IReadOnlySet<int> Hidden => _hidden;

    /// <summary>Every cell with a note.</summary>
    public IEnumerable<int> Cells => _main.Keys.Concat(_room.Keys).Distinct();

    /// <summary>The cell's note, or null.</summary>
    public SiteNote? Main(int cell) => _main.GetValueOrDefault(cell);

    /// <summary>The room's notes for the cell.</summary>
    public IReadOnlyList<RoomNote> Room(int cell) => _room.TryGetValue(cell, out var notes) ? notes : [];

    /// <summary>Notes the cell's results come from the reference run, unless the cell already has a note.</summary>
    public void Reference(int cell, ReferenceResultNote note) => _main.TryAdd(cell, note);

    /// <summary>The cell's note, in place of any it had; <paramref name="hide"/>: its outputs are left out.</summary>
    public void Set(int cell, SiteNote note, bool hide = false)
    {
        _main[cell] = note;
        if (hide)
        {
            _hidden.Add(cell);
        }
    }

    /// <summary>Adds a room's note after the cell's own.</summary>
    public void AddRoom(int cell, RoomNote note)
    {
        if (!_room.TryGetValue(cell, out var notes))
        {
            _room[cell] = notes = [];
        }

        notes.Add(note);
    }
}
