using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace PerfLab.Notebooks.Documents;

/// <summary>The kind of a notebook cell.</summary>
public enum CellKind
{
    /// <summary>Prose.</summary>
    Markdown,

    /// <summary>C# to execute.</summary>
    Code,

    /// <summary>Passed through untouched.</summary>
    Raw,
}

/// <summary>One cell of a notebook as stored in the .ipynb file.</summary>
/// <param name="Index">Position among all cells, from 0.</param>
/// <param name="Kind">Markdown, code or raw.</param>
/// <param name="Source">The cell's text.</param>
/// <param name="HasOutputs">The file stores outputs for this cell.</param>
/// <param name="ExecutionCount">The stored execution count, if any.</param>
public sealed record NotebookCell(int Index, CellKind Kind, string Source, bool HasOutputs, int? ExecutionCount)
{
    /// <summary>How reports and errors name the cell: "cell 3" counts from 1 among all cells.</summary>
    public string Name => $"cell {Index + 1}";
}

/// <summary>
/// A Jupyter notebook (.ipynb, nbformat 4) as the course reads it. The raw JSON is kept, so writing
/// outputs back (<see cref="WithOutputs"/>) changes nothing else in the file.
/// </summary>
public sealed class NotebookDocument
{
    private readonly JsonObject _root;

    private NotebookDocument(string path, JsonObject root, IReadOnlyList<NotebookCell> cells)
    {
        Path = path;
        _root = root;
        Cells = cells;
    }

    /// <summary>The file's full path.</summary>
    public string Path { get; }

    /// <summary>The cells, in order.</summary>
    public IReadOnlyList<NotebookCell> Cells { get; }

    /// <summary>The notebook-level metadata (kernelspec, language_info, polyglot_notebook...).</summary>
    public JsonObject Metadata => _root["metadata"] as JsonObject ?? [];

    /// <summary>The first level-1 markdown heading, else the file name.</summary>
    public string Title
    {
        get
        {
            foreach (var cell in Cells.Where(c => c.Kind == CellKind.Markdown))
            {
                foreach (var line in cell.Source.Split('\n'))
                {
                    if (line.StartsWith("# ", StringComparison.Ordinal))
                    {
                        return line[2..].Trim();
                    }
                }
            }

            return System.IO.Path.GetFileNameWithoutExtension(Path);
        }
    }

    /// <summary>Reads a notebook file.</summary>
    /// <param name="path">The .ipynb file.</param>
    /// <exception cref="PerfLabException">The file is missing or is not a notebook.</exception>
    public static NotebookDocument Load(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var full = System.IO.Path.GetFullPath(path);
        if (!File.Exists(full))
        {
            throw new PerfLabException($"Notebook not found: {path}.", "Check the path; relative paths start from " + Environment.CurrentDirectory + ".");
        }

        string text;
        try
        {
            text = File.ReadAllText(full, Encoding.UTF8);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PerfLabException($"Cannot read {path}: {ex.Message}", "Check the file's permissions.", inner: ex);
        }

        return Parse(text, full);
    }

    /// <summary>Parses notebook JSON.</summary>
    /// <param name="json">The file's text.</param>
    /// <param name="path">The path it came from (for messages).</param>
    /// <exception cref="PerfLabException">The text is not an nbformat 4 notebook.</exception>
    public static NotebookDocument Parse(string json, string path)
    {
        ArgumentNullException.ThrowIfNull(json);
        JsonObject root;
        try
        {
            root = JsonNode.Parse(json) as JsonObject ?? throw new JsonException("the top level is not an object");
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"{System.IO.Path.GetFileName(path)} is not valid notebook JSON: {ex.Message}", "Open it in Jupyter or VS Code and save it again, or restore it with git.", inner: ex);
        }

        if (root["nbformat"]?.GetValueKind() != JsonValueKind.Number || root["nbformat"]!.GetValue<int>() != 4 || root["cells"] is not JsonArray cells)
        {
            throw new PerfLabException($"{System.IO.Path.GetFileName(path)} is not an nbformat 4 notebook (no \"nbformat\": 4 or no \"cells\").", "Save it from Jupyter or VS Code as a .ipynb notebook.");
        }

        var list = new List<NotebookCell>();
        foreach (var node in cells)
        {
            if (node is not JsonObject cell)
            {
                throw new PerfLabException($"{System.IO.Path.GetFileName(path)}: cell {list.Count + 1} is not a JSON object.", "Restore the notebook with git or save it again from Jupyter.");
            }

            var kind = (string?)cell["cell_type"] switch
            {
                "markdown" => CellKind.Markdown,
                "code" => CellKind.Code,
                _ => CellKind.Raw,
            };
            var outputs = cell["outputs"] is JsonArray array && array.Count > 0;
            int? count = cell["execution_count"] is JsonValue value && value.GetValueKind() == JsonValueKind.Number ? value.GetValue<int>() : null;
            list.Add(new NotebookCell(list.Count, kind, SourceText(cell["source"]), outputs, count));
        }

        return new NotebookDocument(path, root, list);
    }

    /// <summary>The notebook's JSON with the given outputs written into its code cells (nothing else changes).</summary>
    /// <param name="outputs">Per cell index: the outputs and execution count to store.</param>
    public string WithOutputs(IReadOnlyDictionary<int, (IReadOnlyList<CellOutput> Outputs, int? ExecutionCount)> outputs)
    {
        ArgumentNullException.ThrowIfNull(outputs);
        var copy = (JsonObject)_root.DeepClone();
        var cells = (JsonArray)copy["cells"]!;
        for (var i = 0; i < cells.Count; i++)
        {
            if (cells[i] is JsonObject cell && (string?)cell["cell_type"] == "code" && outputs.TryGetValue(i, out var stored))
            {
                cell["outputs"] = new JsonArray(stored.Outputs.Select(o => (JsonNode)o.ToJupyter(stored.ExecutionCount)).ToArray());
                cell["execution_count"] = stored.ExecutionCount;
            }
        }

        return Serialize(copy);
    }

    /// <summary>The notebook's JSON with every output and execution count removed.</summary>
    public string WithoutOutputs()
    {
        var copy = (JsonObject)_root.DeepClone();
        foreach (var cell in ((JsonArray)copy["cells"]!).OfType<JsonObject>().Where(c => (string?)c["cell_type"] == "code"))
        {
            cell["outputs"] = new JsonArray();
            cell["execution_count"] = null;
        }

        return Serialize(copy);
    }

    // Jupyter's own layout: one-space indent, a trailing newline; keeps diffs small when a frontend saves.
    private static string Serialize(JsonObject root)
    {
        var json = root.ToJsonString(JsonFormats.Notebook);
        return json + "\n";
    }

    private static string SourceText(JsonNode? source) => source switch
    {
        JsonArray lines => string.Concat(lines.Select(l => (string?)l ?? "")),
        JsonValue value when value.GetValueKind() == JsonValueKind.String => value.GetValue<string>(),
        _ => "",
    };
}
