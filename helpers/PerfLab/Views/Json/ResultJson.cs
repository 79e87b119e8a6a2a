using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using PerfLab.Results;

namespace PerfLab.Views.Json;

/// <summary>
/// A <see cref="BenchmarkRun"/> as JSON (layout: docs/results-schema.md): `perflab bench --json` and the runs of a
/// reference machine file, and that file's whole <see cref="ReferenceDocument"/>. <see cref="ResultJsonReader"/> and
/// <see cref="ReferenceDocument.Read(string, string?)"/> read them back.
/// </summary>
public static class ResultJson
{
    /// <summary>The run as indented JSON.</summary>
    /// <param name="run">The run.</param>
    public static string Serialize(BenchmarkRun run) => JsonSerializer.Serialize(run, JsonFormats.Results);

    /// <summary>The document as a reference machine file holds it (indented, ending with a new line).</summary>
    /// <param name="document">The document.</param>
    public static string Serialize(ReferenceDocument document) => ToJson(document).ToJsonString(JsonFormats.WebIndented) + "\n";

    /// <summary>The document as a JSON object (a room's export adds the laptop's instruction sets and group to its machine).</summary>
    /// <param name="document">The document.</param>
    public static JsonObject ToJson(ReferenceDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        return new JsonObject
        {
            ["schema"] = ReferenceDocument.Schema,
            ["created"] = document.Created.ToString("O", CultureInfo.InvariantCulture),
            ["mode"] = document.Mode,
            ["machine"] = JsonSerializer.SerializeToNode(document.Machine, JsonFormats.WebIndented),
            ["runs"] = new JsonArray(document.Runs.Select(r => (JsonNode)new JsonObject
            {
                ["suite"] = r.Suite,
                ["code"] = r.Code,
                ["run"] = r.AsRead?.DeepClone() ?? JsonNode.Parse(Serialize(r.Run)),
            }).ToArray()),
        };
    }
}
