using System.Collections;
using System.Globalization;
using System.Reflection;
using PerfLab.Views.Html;

namespace PerfLab.Notebooks.Execution;

/// <summary>
/// Turns a value into the MIME bundle a notebook shows: the course's result types through the same
/// formatters .NET Interactive uses (<see cref="NotebookFormatterSource"/>), a Plotly.NET chart as a chart
/// drawn with the course's plotly.js, any type with a public <c>string ToHtml()</c> as HTML, everything
/// else as text.
/// </summary>
public static class ValueDisplay
{
    private const int MaxItems = 20;

    /// <summary>MIME type to content for <paramref name="value"/>; text/plain is always present.</summary>
    /// <param name="value">The value (null shows as "null").</param>
    /// <param name="page">The page the output goes to (its session's): a chart's output carries plotly.js when the page has none yet.</param>
    public static IReadOnlyDictionary<string, string> Format(object? value, NotebookPage page)
    {
        ArgumentNullException.ThrowIfNull(page);
        var data = new Dictionary<string, string>(StringComparer.Ordinal) { ["text/plain"] = Text(value) };
        if (value is null)
        {
            return data;
        }

        var html = value is Plotly.NET.GenericChart chart ? ResultsHtml.ReaderChart(chart, page) : NotebookFormatterSource.ToHtml(value, page) ?? HtmlByConvention(value);
        if (html is not null)
        {
            data["text/html"] = html;
        }

        return data;
    }

    private static string? HtmlByConvention(object value) =>
        value.GetType().GetMethod("ToHtml", BindingFlags.Public | BindingFlags.Instance, Type.EmptyTypes) is { } method && method.ReturnType == typeof(string)
            ? method.Invoke(value, null) as string
            : null;

    private static string Text(object? value)
    {
        switch (value)
        {
            case null:
                return "null";
            case string text:
                return text;
            case IFormattable formattable:
                return formattable.ToString(null, CultureInfo.InvariantCulture);
            case IDictionary dictionary:
                return "{ " + string.Join(", ", dictionary.Cast<DictionaryEntry>().Take(MaxItems).Select(e => $"{Text(e.Key)}: {Text(e.Value)}"))
                    + (dictionary.Count > MaxItems ? ", ..." : "") + " }";
            case IEnumerable items when value.GetType().GetMethod("ToString", Type.EmptyTypes)?.DeclaringType == typeof(object):
                var list = items.Cast<object?>().Take(MaxItems + 1).ToList();
                return "[ " + string.Join(", ", list.Take(MaxItems).Select(Text)) + (list.Count > MaxItems ? ", ..." : "") + " ]";
            default:
                return value.ToString() ?? "";
        }
    }
}
