using System.Text.Json.Nodes;
using PerfLab.Course.Reference;

namespace PerfLab.Course.Views;

/// <summary>docs/fidelity.json: the fidelity rows (<see cref="FidelityReport"/>) for tools.</summary>
public static class FidelityJson
{
    /// <summary>docs/fidelity.json's text.</summary>
    /// <param name="rows">The rows.</param>
    public static string Write(IReadOnlyList<FidelityRow> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        var array = new JsonArray(rows.Select(r => (JsonNode)new JsonObject
        {
            ["id"] = r.Id,
            ["compared"] = r.Compared,
            ["published"] = Math.Round(r.Published, 4),
            ["reference"] = new JsonArray(r.Reference.Select(m => (JsonNode)new JsonObject
            {
                ["machine"] = m.Machine,
                ["ratio"] = Math.Round(m.Ratio, 4),
                ["low"] = m.Interval is null ? null : Math.Round(m.Interval.Low, 4),
                ["high"] = m.Interval is null ? null : Math.Round(m.Interval.High, 4),
                ["processes"] = m.Processes, // 1: the interval is from one process's iterations
            }).ToArray()),
            ["agrees"] = r.Agrees,
            ["hardware"] = r.Hardware,
        }).ToArray());
        if (rows.Any(r => r.Room is not null))
        {
            // Only with --room: the committed docs/fidelity.json keeps its layout.
            foreach (var (node, row) in array.Zip(rows))
            {
                node!["room"] = new JsonArray((row.Room ?? []).Select(m => (JsonNode)new JsonObject
                {
                    ["laptop"] = m.Machine,
                    ["ratio"] = Math.Round(m.Ratio, 4),
                    ["low"] = m.Interval is null ? null : Math.Round(m.Interval.Low, 4),
                    ["high"] = m.Interval is null ? null : Math.Round(m.Interval.High, 4),
                }).ToArray());
                node["roomAgrees"] = row.RoomAgrees;
            }
        }

        return new JsonObject { ["schema"] = "perflab-fidelity/1", ["rows"] = array }.ToJsonString(JsonFormats.Indented) + "\n";
    }
}
