using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using PerfLab.Results;
using PerfLab.Views.Json;

namespace PerfLab.Course.Room;

/// <summary>One laptop of a room's export: its reference-format document read back.</summary>
/// <param name="Name">Its nickname.</param>
/// <param name="Machine">Its rows as the fidelity report compares them (<see cref="ReferenceRuns.Machine.Of"/>).</param>
/// <param name="Runs">Its runs, each cell's latest, with their content keys.</param>
/// <param name="Group">How the room grouped it (<see cref="RoomSummary.Group"/>).</param>
public sealed record RoomExportMachine(string Name, ReferenceRuns.Machine Machine, IReadOnlyList<RecordedRun> Runs, string Group);

/// <summary>
/// `perflab room export FOLDER --out FILE`: a room's results in the reference machine file's format
/// (data/reference/machines, <see cref="ReferenceDocument"/>), one machine per laptop, gathered in one file:
/// <c>{"schema": "perflab-room-export/1", "room", "exported", "machines": [DOCUMENT, ...]}</c>, where each DOCUMENT is
/// exactly what a reference machine file holds: <c>schema</c>, <c>created</c> (the laptop's first post), <c>mode</c>
/// (its runs' mode, or "mixed" when they differ: each run keeps its own), <c>machine</c> (named by the nickname, with
/// <c>instructionSets</c> and the room's <c>group</c> added) and <c>runs</c>: each cell's latest run of that laptop,
/// as the room's page shows it, <c>suite</c> being its notebook (or the file `perflab bench` ran) and <c>code</c> its
/// content key. `perflab fidelity --room` and `perflab site --room` read it beside the reference machines.
/// </summary>
public static class RoomExport
{
    /// <summary>The export's schema.</summary>
    public const string Schema = "perflab-room-export/1";

    /// <summary>The export of the room kept in <paramref name="folder"/>, as JSON text.</summary>
    /// <param name="folder">The room's folder (`perflab room serve` printed it; it may be serving).</param>
    /// <returns>The text, and how many laptops and runs it holds.</returns>
    /// <exception cref="PerfLabException">No room there, its files are not a room's, or it holds no result yet.</exception>
    public static (string Json, int Laptops, int Runs) Of(string folder)
    {
        var posts = RoomLedger.Read(folder);
        if (posts.Count == 0)
        {
            throw new PerfLabException($"The room in {Path.GetFullPath(folder)} holds no result yet.", "Export it once laptops have run a cell (the room's page counts them).");
        }

        var machines = new JsonArray();
        var runs = 0;
        foreach (var laptop in posts.GroupBy(p => p.Laptop, StringComparer.Ordinal))
        {
            var latest = laptop.Last();
            // Each cell's latest run, in the order the cells were first posted.
            var cells = laptop.GroupBy(p => p.Code, StringComparer.Ordinal).Select(c => c.Last()).ToArray();
            var modes = cells.Select(p => ModeChoice.Name(p.Run.Mode)).Distinct(StringComparer.Ordinal).ToArray();
            var laptopDocument = ResultJson.ToJson(new ReferenceDocument(
                laptop.First().Run.StartedAt,
                modes.Length == 1 ? modes[0] : "mixed",
                latest.Machine with { Name = latest.Nickname },
                cells.Select(p => new RecordedRun(p.Notebook ?? p.Run.Source, p.Code, p.Run)).ToArray()));
            laptopDocument["machine"]!["instructionSets"] = JsonSerializer.SerializeToNode(latest.InstructionSets, JsonFormats.WebIndented);
            laptopDocument["machine"]!["group"] = RoomSummary.Group(latest.InstructionSets, latest.Machine.Platform);
            machines.Add(laptopDocument);
            runs += cells.Length;
        }

        var document = new JsonObject
        {
            ["schema"] = Schema,
            ["room"] = Path.GetFileName(Path.GetFullPath(folder).TrimEnd(Path.DirectorySeparatorChar)),
            ["exported"] = DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture),
            ["machines"] = machines,
        };
        return (document.ToJsonString(JsonFormats.WebIndented) + "\n", machines.Count, runs);
    }

    /// <summary>The laptops of an export file, read back.</summary>
    /// <param name="file">A file `perflab room export` wrote.</param>
    /// <exception cref="PerfLabException">The file is missing, not JSON, not an export of this version, or a machine in it is not a reference document.</exception>
    public static IReadOnlyList<RoomExportMachine> Read(string file)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(file);
        var full = Path.GetFullPath(file);
        const string Fix = "Give the file `perflab room export FOLDER --out FILE` wrote, or export the room again with this version.";
        if (!File.Exists(full))
        {
            throw new PerfLabException($"--room: there is no {full}.", Fix);
        }

        JsonObject? document;
        try
        {
            document = JsonNode.Parse(File.ReadAllText(full)) as JsonObject;
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"--room: {full} is not valid JSON ({ex.Message}).", Fix, inner: ex);
        }

        if ((string?)document?["schema"] != Schema || document?["machines"] is not JsonArray machines)
        {
            var schema = document?["schema"] is JsonValue value && value.TryGetValue<string>(out var named) ? named : "(none)";
            throw new PerfLabException($"--room: {full} is schema {schema}; this PerfLab reads a room's export, {Schema}.", Fix);
        }

        var read = new List<RoomExportMachine>();
        foreach (var (entry, index) in machines.Select((m, i) => (m as JsonObject, i)))
        {
            try
            {
                // The room's own words for a machine of another schema; the reader checks the rest.
                if (entry is null || (string?)entry["schema"] != ReferenceDocument.Schema)
                {
                    throw new InvalidOperationException($"it is not a {ReferenceDocument.Schema} document");
                }

                var name = (string?)entry["machine"]?["name"] ?? $"laptop {index + 1}";
                var laptop = ReferenceDocument.Read(entry, name);
                read.Add(new RoomExportMachine(name, ReferenceRuns.Machine.Of(laptop, name), laptop.Runs, (string?)entry["machine"]?["group"] ?? ""));
            }
            catch (Exception ex) when (ex is InvalidOperationException or PerfLabException)
            {
                throw new PerfLabException($"--room: machine {index + 1} of {full} cannot be read ({ex.Message}).", Fix, inner: ex);
            }
        }

        return read;
    }
}
