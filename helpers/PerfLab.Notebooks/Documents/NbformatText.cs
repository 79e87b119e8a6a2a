using System.Text.Json.Nodes;

namespace PerfLab.Notebooks.Documents;

/// <summary>How nbformat stores text: a cell's source or an output's text as a list of lines, each keeping its newline.</summary>
public static class NbformatText
{
    /// <summary>Splits <paramref name="text"/> into nbformat's list of lines, each keeping its newline.</summary>
    /// <param name="text">The text.</param>
    public static JsonArray Lines(string text)
    {
        var array = new JsonArray();
        var start = 0;
        while (start < text.Length)
        {
            var newline = text.IndexOf('\n', start);
            var end = newline < 0 ? text.Length : newline + 1;
            array.Add(text[start..end]);
            start = end;
        }

        return array;
    }
}
