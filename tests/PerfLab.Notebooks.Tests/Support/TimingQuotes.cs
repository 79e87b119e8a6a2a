using System.Globalization;
using System.Text.RegularExpressions;
using PerfLab.Course;
using PerfLab.Course.Site;
using PerfLab.Course.Timings;
using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// Run times the docs quote from the course's timings file (<see cref="CourseRepository.TimingsFile"/>, written by
/// <c>perflab run ... --timings</c>), each followed by a marker naming what it quotes, hidden from readers as an HTML
/// comment, as the notebooks quote the reference run (<see cref="ReferenceNumbers"/>):
/// <code>
/// 141 s&lt;!-- timing: notebooks/00-start-here.ipynb --&gt;            the notebook's whole run, in s or min
/// 57 s&lt;!-- timing: notebooks/00-start-here.ipynb cell 16 --&gt;    one code cell's time
/// 2026-11-28&lt;!-- timing: notebooks/00-start-here.ipynb date --&gt;  the day it was timed (UTC)
/// not timed yet&lt;!-- timing: notebooks/jit/01-tiering-and-pgo.ipynb --&gt;
/// 95 min&lt;!-- timing: course --&gt;                                 every notebook of notebooks/README.md's table, summed
/// </code>
/// A number must be the file's at the precision it is written with. A notebook the file has no timing of (the course:
/// one of its notebooks) is quoted as "not timed yet", never with a number. Every row of notebooks/README.md's table
/// quotes its notebook in its last column and holds no number of its own; a timing whose notebook's code has changed
/// since, or that is of no notebook of the table, is stale.
/// </summary>
public static partial class TimingQuotes
{
    /// <summary>What a notebook the file has no timing of is quoted as.</summary>
    public const string NotTimed = "not timed yet";

    /// <summary>The documents whose markers are checked: README.md and every markdown file under notebooks/, docs/ and data/ (the notebooks' own prose: <see cref="NotebookProse"/>).</summary>
    public static IReadOnlyList<string> Documents(string root) =>
        [
            Path.Combine(root, "README.md"),
            .. new[] { CourseRepository.NotebooksFolder, CourseRepository.DocsFolder, "data" }
                .Select(f => Path.Combine(root, f))
                .Where(Directory.Exists)
                .SelectMany(f => Directory.EnumerateFiles(f, "*.md", SearchOption.AllDirectories))
                .Order(StringComparer.Ordinal),
        ];

    /// <summary>
    /// The prose of <paramref name="notebooks"/>: each markdown cell, named by its notebook's path from the repository
    /// root and the cell ("notebooks/00-start-here.ipynb, cell 12"): a notebook that says how long it runs quotes the
    /// file as the docs do.
    /// </summary>
    public static IEnumerable<(string Name, string Text)> NotebookProse(IEnumerable<string> notebooks, string root) =>
        notebooks.SelectMany(p => NotebookDocument.Load(p).Cells.Where(c => c.Kind == CellKind.Markdown)
                .Select(c => ($"{CourseRepository.Relative(p, root)}, {c.Name}", c.Source)));

    /// <summary>The command that times <paramref name="notebook"/> into the course's file (the whole course: "notebooks").</summary>
    public static string Fix(string notebook) => $"dotnet run --project {CourseRepository.CliProject} -- run {notebook} --mode quick --timings {CourseRepository.TimingsFile}";

    /// <summary>One marked run time.</summary>
    /// <param name="Document">The markdown file, relative to the repository with '/'.</param>
    /// <param name="Line">Its line, from 1.</param>
    /// <param name="Written">What the text says: "141 s", "2.4 min", a date, or "not timed yet".</param>
    /// <param name="Expression">The marker's text after "timing:".</param>
    public sealed record Quote(string Document, int Line, string Written, string Expression)
    {
        public override string ToString() => $"{Document}:{Line}: {Written}<!-- timing: {Expression} -->";
    }

    /// <summary>The course's notebooks, relative to the repository: the rows of notebooks/README.md's table, in order.</summary>
    public static IReadOnlyList<SiteNotebook> Table(string root) =>
        SiteCatalog.Read(Path.Combine(root, CourseRepository.NotebooksFolder, "README.md"));

    /// <summary>A row's notebook, relative to the repository.</summary>
    public static string PathOf(SiteNotebook row) => $"{CourseRepository.NotebooksFolder}/{row.Path}";

    /// <summary>Every marked run time in <paramref name="text"/>'s prose (code, such as a marker shown as an example in backticks, is not read).</summary>
    public static IReadOnlyList<Quote> In(string document, string text) =>
        [.. Marker().Matches(Prose(text)).Select(m => new Quote(document, LineOf(text, m.Index), m.Groups["written"].Value, m.Groups["expression"].Value.Trim()))];

    /// <summary>Markers that do not follow a run time, a date or "not timed yet".</summary>
    public static IEnumerable<string> Stray(string document, string text)
    {
        text = Prose(text);
        var anchored = Marker().Matches(text).Select(m => m.Groups["marker"].Index).ToHashSet();
        return AnyMarker().Matches(text).Where(m => !anchored.Contains(m.Index))
            .Select(m => $"{document}:{LineOf(text, m.Index)}: \"{m.Value}\" does not follow a run time (write it right after \"141 s\", \"2.4 min\", a date or \"{NotTimed}\")");
    }

    /// <summary>Null when <paramref name="quote"/> says what <paramref name="timings"/> holds; otherwise why not, and what to run.</summary>
    /// <param name="quote">The marked run time.</param>
    /// <param name="timings">The course's timings file.</param>
    /// <param name="course">The course's notebooks, relative to the repository (<see cref="Table"/>).</param>
    public static string? Check(Quote quote, TimingsFile timings, IReadOnlyList<string> course)
    {
        var expression = Expression().Match(quote.Expression);
        if (!expression.Success)
        {
            return $"{quote}: the marker names \"{quote.Expression}\"; write a notebook of the course (notebooks/...ipynb), optionally followed by \"cell N\" or \"date\", or \"course\"";
        }

        var notebook = expression.Groups["notebook"].Value;
        var part = expression.Groups["part"].Value;
        if (notebook == "course")
        {
            if (part.Length > 0)
            {
                return $"{quote}: \"course\" is the whole course's time; it has no cell or date";
            }

            var untimed = course.Where(n => timings.Of(n) is null).ToList();
            return untimed.Count > 0
                ? quote.Written == NotTimed ? null : $"{quote}: {untimed.Count} of the course's {course.Count} notebooks have no timing in {CourseRepository.TimingsFile} ({string.Join(", ", untimed.Take(3))}{(untimed.Count > 3 ? ", ..." : "")}): write \"{NotTimed}\", or time the whole course: {Fix(CourseRepository.NotebooksFolder)}"
                : quote.Written == NotTimed
                    ? $"{quote}: {CourseRepository.TimingsFile} has every notebook of the course timed ({TimingsFile.Seconds(course.Sum(n => timings.Of(n)!.Seconds))} in all): quote it"
                    : Compare(quote, course.Sum(n => timings.Of(n)!.Seconds), "the whole course", CourseRepository.NotebooksFolder);
        }

        if (!course.Contains(notebook))
        {
            return $"{quote}: {notebook} is not a notebook of notebooks/README.md's table";
        }

        if (timings.Of(notebook) is not { } timing)
        {
            return quote.Written == NotTimed ? null : $"{quote}: {CourseRepository.TimingsFile} has no timing of {notebook}: write \"{NotTimed}\", or time it: {Fix(notebook)}";
        }

        if (quote.Written == NotTimed)
        {
            return $"{quote}: {CourseRepository.TimingsFile} has {notebook} timed ({TimingsFile.Seconds(timing.Seconds)} on {Day(timing)}): quote it";
        }

        if (part == "date")
        {
            return quote.Written == Day(timing) ? null : $"{quote}: {notebook} was timed on {Day(timing)}, not {quote.Written}";
        }

        if (part.StartsWith("cell ", StringComparison.Ordinal))
        {
            return timing.Cells.FirstOrDefault(c => c.Cell == part) is { } cell
                ? Compare(quote, cell.Seconds, $"{notebook}, {part}", notebook)
                : $"{quote}: the timing of {notebook} has no {part} (its code cells: {string.Join(", ", timing.Cells.Select(c => c.Cell))})";
        }

        return Compare(quote, timing.Seconds, notebook, notebook);
    }

    /// <summary>
    /// Timings the file should not hold: of a notebook whose code changed since it was timed (its content key differs),
    /// or of a notebook that is not in notebooks/README.md's table.
    /// </summary>
    /// <param name="timings">The course's timings file.</param>
    /// <param name="course">The course's notebooks, relative to <paramref name="root"/>.</param>
    /// <param name="root">The repository.</param>
    public static IEnumerable<string> Stale(TimingsFile timings, IReadOnlyList<string> course, string root)
    {
        foreach (var timing in timings.Notebooks)
        {
            if (!course.Contains(timing.Notebook))
            {
                yield return $"{CourseRepository.TimingsFile} times {timing.Notebook}, which is not a notebook of notebooks/README.md's table: add it to the table, or remove its entry";
            }
            else if (TimingsFile.ContentKey(NotebookDocument.Load(Path.Combine(root, timing.Notebook))) != timing.Code)
            {
                yield return $"{timing.Notebook}: its code changed since it was timed on {Day(timing)} (content key {timing.Code[..12]} in {CourseRepository.TimingsFile}): time it again: {Fix(timing.Notebook)}";
            }
        }
    }

    /// <summary>
    /// Rows of notebooks/README.md's table whose run time is not a quote of their own notebook's timing: each row's last
    /// column must quote its notebook (its time, or "not timed yet") and hold no number besides.
    /// </summary>
    /// <param name="table">The table's rows (<see cref="Table"/>).</param>
    public static IEnumerable<string> UnquotedRows(IReadOnlyList<SiteNotebook> table)
    {
        foreach (var row in table)
        {
            var notebook = PathOf(row);
            var quotes = In("notebooks/README.md", row.RunTime);
            var rest = Marker().Replace(row.RunTime, "");
            if (!quotes.Any(q => q.Expression == notebook))
            {
                yield return $"notebooks/README.md, row {row.Number}: its run time \"{row.RunTime}\" does not quote {notebook}'s timing: write \"{NotTimed}<!-- timing: {notebook} -->\", or time it ({Fix(notebook)}) and quote the file's seconds";
            }
            else if (Digit().IsMatch(rest))
            {
                yield return $"notebooks/README.md, row {row.Number}: its run time \"{row.RunTime}\" has a number besides the quoted one (\"{rest.Trim()}\"): quote every number from the timings file, or remove it";
            }
        }
    }

    private static string? Compare(Quote quote, double seconds, string what, string notebook)
    {
        var time = Time().Match(quote.Written);
        if (!time.Success)
        {
            return $"{quote}: a time is written \"141 s\" or \"2.4 min\"";
        }

        var minutes = time.Groups["unit"].Value == "min";
        return ReferenceNumbers.AtPrecision(time.Groups["number"].Value, minutes ? seconds / 60 : seconds, minutes ? " min" : " s") is { } says
            ? $"{quote}: {CourseRepository.TimingsFile} says {what} took {says}, not {quote.Written}: quote the file (if the file is the one that is wrong, time it again: {Fix(notebook)})"
            : null;
    }

    private static string Day(NotebookTiming timing) => timing.Started.UtcDateTime.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    // The text with its code blocks and code spans blanked out, every line where it was.
    private static string Prose(string text) => Code().Replace(text, m => new string([.. m.Value.Select(c => c == '\n' ? '\n' : ' ')]));

    private static int LineOf(string text, int index) => text.AsSpan(0, index).Count('\n') + 1;

    // A time (seconds or minutes), a date or "not timed yet", then the marker.
    [GeneratedRegex(@"(?<written>not timed yet|\d{4}-\d{2}-\d{2}|\d+(?:\.\d+)?\s?(?:s|min))(?<marker><!--\s*timing:(?<expression>.*?)-->)")]
    private static partial Regex Marker();

    [GeneratedRegex(@"<!--\s*timing\b.*?-->")]
    private static partial Regex AnyMarker();

    [GeneratedRegex(@"^(?<notebook>course|notebooks/[^\s]+\.ipynb)(?:\s+(?<part>date|cell \d+))?$")]
    private static partial Regex Expression();

    [GeneratedRegex(@"^(?<number>\d+(?:\.\d+)?)\s?(?<unit>s|min)$")]
    private static partial Regex Time();

    [GeneratedRegex(@"^```.*?^```|`[^`\n]*`", RegexOptions.Singleline | RegexOptions.Multiline)]
    private static partial Regex Code();

    [GeneratedRegex(@"\d")]
    private static partial Regex Digit();
}
