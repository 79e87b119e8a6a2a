namespace PerfLab.Tests.Support;

/// <summary>Small notebooks for the command's tests: code cells only, whose benchmark cells each measure a class of their own on .NET 10.</summary>
public static class TestNotebooks
{
    /// <summary>A first cell: what a benchmark cell needs in scope (`perflab run` loads the helpers itself).</summary>
    public const string Usings = "using BenchmarkDotNet.Attributes;\nusing PerfLab.Notebooks;";

    /// <summary>A benchmark cell measuring a class of its own, named <paramref name="type"/>, on .NET 10 only.</summary>
    public static string BenchmarkCell(string type, int value) => $$"""
        public class {{type}}
        {
            [Benchmark] public int Value() => {{value}} + Environment.ProcessorCount;
        }

        await Lab.RunAsync<{{type}}>(runtimes: ["net10.0"])
        """;

    /// <summary>The notebook's JSON, one code cell per source.</summary>
    public static string Json(params string[] cells) => new System.Text.Json.Nodes.JsonObject
    {
        ["nbformat"] = 4,
        ["nbformat_minor"] = 5,
        ["metadata"] = new System.Text.Json.Nodes.JsonObject(),
        ["cells"] = new System.Text.Json.Nodes.JsonArray(cells.Select(c => (System.Text.Json.Nodes.JsonNode)new System.Text.Json.Nodes.JsonObject
        {
            ["cell_type"] = "code", ["metadata"] = new System.Text.Json.Nodes.JsonObject(), ["source"] = c, ["outputs"] = new System.Text.Json.Nodes.JsonArray(), ["execution_count"] = null,
        }).ToArray()),
    }.ToJsonString();
}
