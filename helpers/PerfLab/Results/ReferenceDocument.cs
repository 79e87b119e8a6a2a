using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace PerfLab.Results;

/// <summary>One run of a reference document.</summary>
/// <param name="Suite">The suite file or notebook it came from (data/reference/suite/X.cs, notebooks/X.ipynb).</param>
/// <param name="Code">The content key of the code it measured (BenchmarkRequest.ContentKey), or null in a file written before runs carried one.</param>
/// <param name="Run">The run.</param>
public sealed record RecordedRun(string Suite, string? Code, BenchmarkRun Run)
{
    // The run as its file held it, written again as it was: read back, a run gains what its file lacked (a processor,
    // intervals), and an update must not change the runs it keeps. Null for a run not read from a file.
    internal JsonNode? AsRead { get; init; }
}

/// <summary>
/// A reference machine document, <see cref="Schema"/>: a data/reference/machines file (`perflab reference`), or one
/// machine of a room's export. Its one reader, <see cref="Read(string, string?)"/>, serves the reference runs, the
/// reference job's update, the course site and the room's export; Views/Json's ResultJson writes it.
/// </summary>
/// <param name="Created">When the file was written.</param>
/// <param name="Mode">Its runs' mode (smoke, quick, full; a room's laptop whose runs differ: mixed).</param>
/// <param name="Machine">The machine it names.</param>
/// <param name="Runs">Its runs, in the file's order.</param>
public sealed record ReferenceDocument(DateTimeOffset Created, string Mode, MachineDescription Machine, IReadOnlyList<RecordedRun> Runs)
{
    /// <summary>The schema name the document declares.</summary>
    public const string Schema = "perflab-reference/1";

    /// <summary>
    /// The processors its runs ran on, with how many runs each, most first: a file's runs can come from more than one
    /// processor of the same name's machine, and a run that recorded none ran on the file's machine's.
    /// </summary>
    public IReadOnlyList<(string Processor, int Runs)> Processors =>
        Runs.GroupBy(r => r.Run.Machine.Processor ?? Machine.Processor).OrderByDescending(g => g.Count()).Select(g => (g.Key, g.Count())).ToArray();

    /// <summary>The document in <paramref name="file"/>.</summary>
    /// <param name="file">data/reference/machines/NAME.json, or another file of this schema.</param>
    /// <param name="shownAs">How messages name the file; null: its path.</param>
    /// <exception cref="PerfLabException">The file is missing, not JSON, of another schema, or not a reference document.</exception>
    public static ReferenceDocument Read(string file, string? shownAs = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(file);
        JsonNode? document;
        try
        {
            document = JsonNode.Parse(File.ReadAllText(file));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException)
        {
            throw Unreadable(shownAs ?? file, ex);
        }

        return Read(document, shownAs ?? file);
    }

    /// <summary>A document already parsed (one machine of a room's export).</summary>
    /// <param name="document">The document.</param>
    /// <param name="shownAs">How messages name it.</param>
    /// <exception cref="PerfLabException">It is of another schema, or not a reference document.</exception>
    public static ReferenceDocument Read(JsonNode? document, string shownAs)
    {
        var schema = document is JsonObject && document["schema"] is JsonValue value && value.TryGetValue<string>(out var named) ? named : null;
        if (schema != Schema)
        {
            throw new PerfLabException($"{shownAs} declares schema {schema ?? "(none)"}; this PerfLab reads {Schema}.", "Run `perflab reference` again to write it anew.");
        }

        try
        {
            var created = DateTimeOffset.Parse((string?)document!["created"] ?? throw new FormatException("it has no created date"), CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind);
            var machine = document["machine"]?.Deserialize<MachineDescription>(JsonFormats.WebIndented) ?? throw new FormatException("it names no machine");
            var runs = (document["runs"] as JsonArray ?? throw new FormatException("it has no runs")).Select(entry => new RecordedRun(
                    (string?)entry?["suite"] ?? "",
                    (string?)entry?["code"],
                    ResultJsonReader.Read(entry?["run"]?.ToJsonString() ?? "null"))
                { AsRead = entry?["run"] })
                .ToArray();
            return new ReferenceDocument(created, (string?)document["mode"] ?? throw new FormatException("it names no mode"), machine, runs);
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException or FormatException or PerfLabException)
        {
            throw Unreadable(shownAs, ex);
        }
    }

    private static PerfLabException Unreadable(string shownAs, Exception ex) =>
        new($"Cannot read {shownAs}: {ex.Message}", "Restore it from git, or run `perflab reference` again to write it anew.", inner: ex);
}
