using System.Text.Json.Nodes;
using PerfLab.Contract;
using PerfLab.Course;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>Notebooks and runs built by hand in a test, in the shape Jupyter writes them (no file involved).</summary>
public static class TestNotebooks
{
    /// <summary>A repository root that need not exist: the setup cell only depends on the relative path.</summary>
    public static string RepoRoot { get; } = Path.Combine(Path.GetTempPath(), "perflab-test-repo");

    /// <summary>Where the test notebook pretends to live: two folders below the root, as course notebooks do.</summary>
    public static string NotebookPath { get; } = CourseRepository.PathOf($"{CourseRepository.NotebooksFolder}/runtime/01-demo.ipynb", RepoRoot);

    /// <summary>The setup cell's text for <see cref="NotebookPath"/>.</summary>
    public static string SetupText => SetupCell.For(NotebookPath, RepoRoot);

    /// <summary>The notebook-level metadata every course notebook carries.</summary>
    public static JsonObject Metadata() => new()
    {
        ["kernelspec"] = new JsonObject { ["display_name"] = "C# (PerfLab)", ["language"] = "C#", ["name"] = "perflab-csharp" },
        ["language_info"] = new JsonObject { ["name"] = "csharp", ["file_extension"] = ".cs", ["mimetype"] = "text/x-csharp", ["pygments_lexer"] = "csharp", ["version"] = PerfLab.Notebooks.Execution.NotebookSession.CSharpVersion },
        ["polyglot_notebook"] = new JsonObject
        {
            ["kernelInfo"] = new JsonObject
            {
                ["defaultKernelName"] = "csharp",
                ["items"] = new JsonArray(new JsonObject { ["aliases"] = new JsonArray(), ["name"] = "csharp" }),
            },
        },
    };

    /// <summary>A markdown cell.</summary>
    public static JsonObject Markdown(string source) => new()
    {
        ["cell_type"] = "markdown",
        ["metadata"] = new JsonObject(),
        ["source"] = NbformatText.Lines(source),
    };

    /// <summary>A code cell, stripped unless outputs or a count are given.</summary>
    public static JsonObject Code(string source, JsonArray? outputs = null, int? executionCount = null) => new()
    {
        ["cell_type"] = "code",
        ["execution_count"] = executionCount,
        ["metadata"] = new JsonObject(),
        ["outputs"] = outputs ?? [],
        ["source"] = NbformatText.Lines(source),
    };

    /// <summary>The notebook's JSON.</summary>
    public static string Json(JsonObject metadata, params JsonObject[] cells) => new JsonObject
    {
        ["cells"] = new JsonArray(cells.Select(c => (JsonNode)c.DeepClone()).ToArray()),
        ["metadata"] = metadata.DeepClone(),
        ["nbformat"] = 4,
        ["nbformat_minor"] = 5,
    }.ToJsonString();

    /// <summary>A notebook at <see cref="NotebookPath"/>.</summary>
    public static NotebookDocument Notebook(JsonObject metadata, params JsonObject[] cells) =>
        NotebookDocument.Parse(Json(metadata, cells), NotebookPath);

    /// <summary>A clean notebook: title, setup cell, one code cell.</summary>
    public static NotebookDocument Clean() => Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("var x = 1 + 1;"));

    /// <summary>A run of <paramref name="notebook"/>: each cell gets the outputs given for its index, code cells are numbered in order until a failure.</summary>
    public static NotebookRun Run(NotebookDocument notebook, IReadOnlyDictionary<int, CellOutput[]> outputs, int? failedCell = null, BenchmarkMode mode = BenchmarkMode.Smoke)
    {
        var cells = new List<CellRun>();
        var count = 0;
        var stopped = false;
        foreach (var cell in notebook.Cells)
        {
            var executed = cell.Kind == CellKind.Code && !stopped;
            var failed = executed && cell.Index == failedCell;
            cells.Add(new CellRun(cell, executed ? outputs.GetValueOrDefault(cell.Index, []) : [], executed ? ++count : null, TimeSpan.FromMilliseconds(executed ? 120 : 0), failed));
            stopped |= failed;
        }

        return new NotebookRun(notebook, cells, mode, new DateTimeOffset(2026, 11, 23, 9, 30, 0, TimeSpan.Zero), TimeSpan.FromSeconds(4.2), "Linux, 4 cores, .NET 10.0.0");
    }
}
