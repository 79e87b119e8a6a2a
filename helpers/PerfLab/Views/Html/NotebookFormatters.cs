using PerfLab.Disassembly;
using PerfLab.GeneratedRegexSource;
using PerfLab.Results;

namespace PerfLab.Views.Html;

/// <summary>
/// Polyglot Notebooks (.NET Interactive) finds formatters by convention, without a package reference:
/// a type carrying an attribute named TypeFormatterSourceAttribute points at a source whose
/// CreateTypeFormatters() returns objects with a MimeType and one public bool Format(object, TextWriter).
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
internal sealed class TypeFormatterSourceAttribute(Type formatterSourceType) : Attribute
{
    /// <summary>The type that creates the formatters.</summary>
    public Type FormatterSourceType { get; } = formatterSourceType;

    /// <summary>HTML first: notebooks show the table and charts.</summary>
    public string[] PreferredMimeTypes { get; set; } = ["text/html", "text/plain"];
}

/// <summary>The formatters of the course's result types, found by .NET Interactive through <see cref="TypeFormatterSourceAttribute"/>.</summary>
public sealed class NotebookFormatterSource
{
    /// <summary>
    /// The page of the outputs these formatters write when .NET Interactive calls them: it runs one notebook per
    /// process and has no display session of the course's, so its page is the process's. The course kernel and
    /// <c>perflab run</c> give each session a page of its own (<see cref="ToHtml"/>).
    /// </summary>
    public static NotebookPage InteractivePage { get; } = new();

    /// <summary>HTML and plain-text formatters for <see cref="BenchmarkRun"/>, <see cref="AsmReport"/>, <see cref="InstructionSets"/>, <see cref="BreakEven"/> and <see cref="RegexSourceReport"/>.</summary>
    public IEnumerable<object> CreateTypeFormatters() =>
    [
        new Formatter("text/html", value => ToHtml(value, InteractivePage)),
        new Formatter("text/plain", value => value.ToString() ?? ""),
    ];

    /// <summary>The HTML a notebook output shows for a result object, or null for other types.</summary>
    /// <param name="value">A result.</param>
    /// <param name="page">The page the output goes to: a chart's output carries plotly.js when the page has none yet.</param>
    public static string? ToHtml(object value, NotebookPage page) => value switch
    {
        BenchmarkRun run => ResultsHtml.Fragment(run, page),
        AsmReport report => AsmHtml.Fragment(report),
        InstructionSets sets => InstructionSetsHtml.Fragment(sets),
        BreakEven breakEven => BreakEvenHtml.Fragment(breakEven, page),
        RegexSourceReport regex => RegexSourceHtml.Fragment(regex),
        _ => null,
    };

    /// <summary>One formatter: a MIME type and its Format method.</summary>
    public sealed class Formatter
    {
        private readonly Func<object, string?> _render;

        internal Formatter(string mimeType, Func<object, string?> render)
        {
            MimeType = mimeType;
            _render = render;
        }

        /// <summary>The MIME type written.</summary>
        public string MimeType { get; }

        /// <summary>Writes <paramref name="instance"/>; false when it is not a type this formatter knows.</summary>
        /// <param name="instance">The value to display.</param>
        /// <param name="writer">Where to write.</param>
        public bool Format(object instance, TextWriter writer)
        {
            ArgumentNullException.ThrowIfNull(writer);
            if (instance is not (BenchmarkRun or AsmReport or InstructionSets or BreakEven or RegexSourceReport) || _render(instance) is not { } text)
            {
                return false;
            }

            writer.Write(text);
            return true;
        }
    }
}
