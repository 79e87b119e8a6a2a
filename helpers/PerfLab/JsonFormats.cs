using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace PerfLab;

/// <summary>
/// Every JSON shape the helpers write and read, in one place, so two writers of one document cannot drift
/// apart and a file keeps its bytes from release to release. The host protocol's shape is the exception:
/// the host compiles the contract but not this library, so it stays <c>HostProtocol.Json</c>.
/// At the root because Results, Disassembly, Views and the projects above all use it.
/// </summary>
public static class JsonFormats
{
    /// <summary>
    /// A <c>BenchmarkRun</c> (docs/results-schema.md): camelCase, indented, nulls written, enums as camelCase
    /// names, NaN and infinities as named literals.
    /// </summary>
    public static JsonSerializerOptions Results { get; } = ReadOnly(new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.CamelCase) },
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    });

    /// <summary>
    /// A cached capture of listings: camelCase, and only what reads back. The counts and names an
    /// <c>AsmListing</c> computes from its lines (get-only properties) are computed again on read, so an
    /// entry cannot disagree with its own lines. IgnoreReadOnlyProperties would not do: it keeps get-only
    /// collections such as Instructions (dotnet/runtime#80113).
    /// </summary>
    public static JsonSerializerOptions Listings { get; } = ReadOnly(new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        TypeInfoResolver = new DefaultJsonTypeInfoResolver { Modifiers = { WriteOnlyWhatReadsBack } },
    });

    /// <summary>The course's own documents (perflab-kit.json, a reference machine file): the web defaults (camelCase), indented.</summary>
    public static JsonSerializerOptions WebIndented { get; } = ReadOnly(new(JsonSerializerDefaults.Web) { WriteIndented = true });

    /// <summary>
    /// A workshop room's answer to a request (PerfLab.Room): the web defaults (camelCase), indented, quotes and backticks
    /// as they are, so the message reads the same with curl as on a laptop. Never for text placed in a page.
    /// </summary>
    public static JsonSerializerOptions Answer { get; } = ReadOnly(new(JsonSerializerDefaults.Web) { WriteIndented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping });

    /// <summary>A document written as built (a kernelspec, docs/fidelity.json, a chart's figure pinned by a test): indented, names as given.</summary>
    public static JsonSerializerOptions Indented { get; } = ReadOnly(new() { WriteIndented = true });

    /// <summary>
    /// A Plotly figure inside a page's script: compact, and the default encoder escapes &lt;, &gt; and &amp;,
    /// so no title or label can end the script.
    /// </summary>
    public static JsonSerializerOptions Figure { get; } = ReadOnly(new() { WriteIndented = false });

    /// <summary>An .ipynb file as Jupyter writes it: one-space indent, characters unescaped, so a frontend's save leaves a small diff.</summary>
    public static JsonSerializerOptions Notebook { get; } = ReadOnly(new() { WriteIndented = true, IndentSize = 1, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping });

    // Shared instances: no caller may change one under another.
    private static JsonSerializerOptions ReadOnly(JsonSerializerOptions options)
    {
        options.MakeReadOnly(populateMissingResolver: true);
        return options;
    }

    private static void WriteOnlyWhatReadsBack(JsonTypeInfo type)
    {
        for (var i = type.Properties.Count - 1; i >= 0; i--)
        {
            if (type.Properties[i].Set is null)
            {
                type.Properties.RemoveAt(i);
            }
        }
    }
}
