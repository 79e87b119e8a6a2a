using System.Text.Json.Nodes;
using PerfLab.Notebooks.Documents;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Unit;

public class NotebookDocumentTests
{
    [Fact]
    public void Text_that_is_not_JSON_is_reported_with_the_file_name()
    {
        var broken = "{\"cells\": [";

        var error = Assert.Throws<PerfLabException>(() => NotebookDocument.Parse(broken, "/course/01-demo.ipynb"));

        Assert.True(error.Message.StartsWith("01-demo.ipynb is not valid notebook JSON", StringComparison.Ordinal), error.Message);
        Assert.False(string.IsNullOrEmpty(error.Fix), "a parse error should say how to recover the file");
    }

    [Fact]
    public void JSON_whose_top_level_is_not_an_object_is_not_a_notebook()
    {
        var error = Assert.Throws<PerfLabException>(() => NotebookDocument.Parse("[1, 2]", "/course/01-demo.ipynb"));

        Assert.True(error.Message.Contains("is not valid notebook JSON", StringComparison.Ordinal), error.Message);
    }

    [Fact]
    public void A_notebook_of_another_nbformat_is_rejected()
    {
        var json = """{"nbformat": 3, "cells": []}""";

        var error = Assert.Throws<PerfLabException>(() => NotebookDocument.Parse(json, "/course/old.ipynb"));

        Assert.True(error.Message.Contains("old.ipynb is not an nbformat 4 notebook", StringComparison.Ordinal), error.Message);
    }

    [Fact]
    public void A_notebook_without_cells_is_rejected()
    {
        var json = """{"nbformat": 4, "metadata": {}}""";

        var error = Assert.Throws<PerfLabException>(() => NotebookDocument.Parse(json, "/course/empty.ipynb"));

        Assert.True(error.Message.Contains("no \"cells\"", StringComparison.Ordinal), error.Message);
    }

    [Fact]
    public void A_cell_that_is_not_an_object_is_named_in_the_error()
    {
        var json = """{"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "# T"}, "oops"]}""";

        var error = Assert.Throws<PerfLabException>(() => NotebookDocument.Parse(json, "/course/01-demo.ipynb"));

        Assert.True(error.Message.Contains("01-demo.ipynb: cell 2 is not a JSON object", StringComparison.Ordinal), error.Message);
    }

    [Fact]
    public void A_missing_file_is_reported_as_not_found()
    {
        var path = Path.Combine(Path.GetTempPath(), "perflab-" + Guid.NewGuid().ToString("N") + ".ipynb");

        var error = Assert.Throws<PerfLabException>(() => NotebookDocument.Load(path));

        Assert.True(error.Message.StartsWith("Notebook not found", StringComparison.Ordinal), error.Message);
    }

    [Fact]
    public void Cells_are_read_with_their_kind_source_outputs_and_count()
    {
        var outputs = new JsonArray(new JsonObject { ["output_type"] = "stream", ["name"] = "stdout", ["text"] = new JsonArray("hi\n") });

        var notebook = Notebook(Metadata(), Markdown("# Demo\nText"), Code("Console.WriteLine(\"hi\");", outputs, 3));

        Assert.Equal(2, notebook.Cells.Count);
        Assert.Equal(new NotebookCell(0, CellKind.Markdown, "# Demo\nText", false, null), notebook.Cells[0]);
        Assert.Equal(new NotebookCell(1, CellKind.Code, "Console.WriteLine(\"hi\");", true, 3), notebook.Cells[1]);
        Assert.Equal("Demo", notebook.Title);
    }

    [Fact]
    public void WithOutputs_writes_outputs_and_count_into_the_code_cell_and_changes_nothing_else()
    {
        var original = Json(Metadata(), Markdown("# Demo"), Code(SetupText), Code("1 + 1"));
        var notebook = NotebookDocument.Parse(original, NotebookPath);
        var outputs = new Dictionary<int, (IReadOnlyList<CellOutput>, int?)>
        {
            [2] = ([new DisplayOutput(new Dictionary<string, string> { ["text/plain"] = "2" }, IsResult: true)], 2),
        };

        var written = JsonNode.Parse(notebook.WithOutputs(outputs))!.AsObject();

        var cell = written["cells"]![2]!.AsObject();
        Assert.Equal(2, (int?)cell["execution_count"]);
        Assert.Equal("execute_result", (string?)cell["outputs"]![0]!["output_type"]);
        Assert.Equal("2", (string?)cell["outputs"]![0]!["data"]!["text/plain"]![0]);
        cell["outputs"] = new JsonArray();
        cell["execution_count"] = null;
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(original), written), "only the outputs and count of cell 3 should change:\n" + written.ToJsonString());
    }

    [Fact]
    public void WithOutputs_ignores_outputs_given_for_a_markdown_cell()
    {
        var original = Json(Metadata(), Markdown("# Demo"), Code(SetupText));
        var notebook = NotebookDocument.Parse(original, NotebookPath);
        var outputs = new Dictionary<int, (IReadOnlyList<CellOutput>, int?)> { [0] = ([new StreamOutput("stdout", "x")], 1) };

        var written = notebook.WithOutputs(outputs);

        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(original), JsonNode.Parse(written)), "a markdown cell has no outputs:\n" + written);
    }

    [Fact]
    public void Outputs_written_then_read_back_are_seen_on_the_cell()
    {
        var notebook = Clean();
        var outputs = new Dictionary<int, (IReadOnlyList<CellOutput>, int?)>
        {
            [1] = ([new StreamOutput("stdout", "ready\n")], 1),
            [2] = ([new ErrorOutput("CompilationError", "(1,5): error CS1002: ; expected", ["line 1"])], 2),
        };

        var reread = NotebookDocument.Parse(notebook.WithOutputs(outputs), NotebookPath);

        Assert.True(reread.Cells[1] is { HasOutputs: true, ExecutionCount: 1 }, reread.Cells[1].ToString());
        Assert.True(reread.Cells[2] is { HasOutputs: true, ExecutionCount: 2 }, reread.Cells[2].ToString());
        Assert.Equal(notebook.Cells.Select(c => c.Source), reread.Cells.Select(c => c.Source));
    }

    [Fact]
    public void WithoutOutputs_restores_the_stripped_notebook_exactly()
    {
        var original = Json(Metadata(), Markdown("# Demo"), Code(SetupText), Code("Console.Write(1);"));
        var outputs = new Dictionary<int, (IReadOnlyList<CellOutput>, int?)>
        {
            [1] = ([new StreamOutput("stdout", "ready\n")], 1),
            [3] = ([new StreamOutput("stdout", "1")], 2),
        };
        var withOutputs = NotebookDocument.Parse(NotebookDocument.Parse(original, NotebookPath).WithOutputs(outputs), NotebookPath);

        var stripped = withOutputs.WithoutOutputs();

        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(original), JsonNode.Parse(stripped)), "stripping should give back the original notebook:\n" + stripped);
    }

    [Fact]
    public void WithoutOutputs_keeps_metadata_sources_and_cell_metadata()
    {
        var cell = Code("var x = 1;", new JsonArray(new JsonObject { ["output_type"] = "stream", ["name"] = "stdout", ["text"] = "x" }), 7);
        cell["metadata"] = new JsonObject { ["tags"] = new JsonArray("keep-me") };
        var notebook = Notebook(Metadata(), Markdown("# Demo"), cell);

        var stripped = JsonNode.Parse(notebook.WithoutOutputs())!;

        var written = stripped["cells"]![1]!;
        Assert.Empty(written["outputs"]!.AsArray());
        Assert.Null(written["execution_count"]);
        Assert.Equal("keep-me", (string?)written["metadata"]!["tags"]![0]);
        Assert.Equal("var x = 1;", (string?)written["source"]![0]);
        Assert.True(JsonNode.DeepEquals(Metadata(), stripped["metadata"]), "notebook metadata should be untouched:\n" + stripped["metadata"]);
    }

    [Fact]
    public void Written_notebooks_use_Jupyters_one_space_indent_and_end_with_a_newline()
    {
        var notebook = Clean();

        var text = notebook.WithoutOutputs();

        Assert.True(text.EndsWith("}\n", StringComparison.Ordinal), "a trailing newline keeps diffs small");
        Assert.True(text.Contains("\n \"cells\": [", StringComparison.Ordinal), text[..Math.Min(200, text.Length)]);
    }
}
