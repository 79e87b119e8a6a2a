using System.Text.Json.Nodes;

namespace PerfLab.Notebooks.Documents;

/// <summary>Something a cell produced, in the shape Jupyter stores and sends it.</summary>
public abstract record CellOutput
{
    /// <summary>This output as an nbformat 4 output object.</summary>
    /// <param name="executionCount">The cell's execution count (execute_result carries it).</param>
    public abstract JsonObject ToJupyter(int? executionCount);
}

/// <summary>Text written to standard output or standard error while the cell ran.</summary>
/// <param name="Name">stdout or stderr.</param>
/// <param name="Text">The text, as written.</param>
/// <param name="IsProgress">
/// A helper's progress lines (which runtime, which case): shown live as stdout, folded away in reports.
/// Jupyter has no such flag, so a saved notebook keeps them as plain stdout.
/// </param>
public sealed record StreamOutput(string Name, string Text, bool IsProgress = false) : CellOutput
{
    /// <inheritdoc />
    public override JsonObject ToJupyter(int? executionCount) => new()
    {
        ["output_type"] = "stream",
        ["name"] = Name,
        ["text"] = NbformatText.Lines(Text),
    };
}

/// <summary>A value shown in several formats (MIME type to content), e.g. text/html and text/plain.</summary>
/// <param name="Data">MIME type to content; text/plain is always present.</param>
/// <param name="IsResult">True for the value of the cell's last expression (execute_result).</param>
public sealed record DisplayOutput(IReadOnlyDictionary<string, string> Data, bool IsResult) : CellOutput
{
    /// <inheritdoc />
    public override JsonObject ToJupyter(int? executionCount)
    {
        var data = new JsonObject();
        foreach (var (mime, content) in Data)
        {
            data[mime] = NbformatText.Lines(content);
        }

        var output = new JsonObject
        {
            ["output_type"] = IsResult ? "execute_result" : "display_data",
            ["data"] = data,
            ["metadata"] = new JsonObject(),
        };
        if (IsResult)
        {
            output["execution_count"] = executionCount;
        }

        return output;
    }
}

/// <summary>
/// What a running cell shows and replaces in place until it ends (a benchmark's table so far, its progress line):
/// Jupyter's display_data with a display_id, then update_display_data for that id. No record keeps it (a report,
/// a notebook written by <c>perflab run</c>): the cell's result and its progress lines are the record.
/// </summary>
/// <param name="DisplayId">The display this output shows or replaces.</param>
/// <param name="Data">MIME type to content; empty when the cell ends and the display is emptied.</param>
/// <param name="IsUpdate">False for the first showing (display_data), true for each replacement (update_display_data).</param>
public sealed record LiveOutput(string DisplayId, IReadOnlyDictionary<string, string> Data, bool IsUpdate) : CellOutput
{
    /// <summary>This output as the iopub message a kernel sends (display_data or update_display_data, with transient.display_id); no notebook stores it.</summary>
    /// <param name="executionCount">Unused: a display carries none.</param>
    public override JsonObject ToJupyter(int? executionCount)
    {
        var data = new JsonObject();
        foreach (var (mime, content) in Data)
        {
            data[mime] = NbformatText.Lines(content);
        }

        return new JsonObject
        {
            ["output_type"] = IsUpdate ? "update_display_data" : "display_data",
            ["data"] = data,
            ["metadata"] = new JsonObject(),
            ["transient"] = new JsonObject { ["display_id"] = DisplayId },
        };
    }
}

/// <summary>The cell failed: a compile error, an exception, a timeout or an interrupt.</summary>
/// <param name="Name">A short name: CompilationError, the exception's type name, Interrupted...</param>
/// <param name="Message">One line that says what happened (and what to do).</param>
/// <param name="Details">Further lines: each compiler diagnostic, or the stack trace.</param>
public sealed record ErrorOutput(string Name, string Message, IReadOnlyList<string> Details) : CellOutput
{
    /// <summary>The lines a frontend prints: the message, then the details.</summary>
    public IReadOnlyList<string> Traceback => [Message, .. Details];

    /// <inheritdoc />
    public override JsonObject ToJupyter(int? executionCount) => new()
    {
        ["output_type"] = "error",
        ["ename"] = Name,
        ["evalue"] = Message,
        ["traceback"] = new JsonArray(Traceback.Select(l => (JsonNode)l).ToArray()),
    };
}
