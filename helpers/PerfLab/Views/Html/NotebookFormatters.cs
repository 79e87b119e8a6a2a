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
    /// <summary>HTML and plain-text formatters for <see cref="BenchmarkRun"/>, <see cref="AsmReport"/>, <see cref="InstructionSets"/>, <see cref="BreakEven"/> and <see cref="RegexSourceReport"/>.</summary>
    public IEnumerable<object> CreateTypeFormatters() =>
    [
        new Formatter("text/html", ToHtml),
        new Formatter("text/plain", value => value.ToString() ?? ""),
    ];

    /// <summary>The HTML a notebook output shows for a result object, or null for other types.</summary>
    /// <param name="value">A result.</param>
    public static string? ToHtml(object value) => value switch
    {
        BenchmarkRun run => ResultsHtml.Fragment(run),
        AsmReport report => AsmHtml.Fragment(report),
        InstructionSets sets => InstructionSetsHtml.Fragment(sets),
        BreakEven breakEven => BreakEvenHtml.Fragment(breakEven),
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
