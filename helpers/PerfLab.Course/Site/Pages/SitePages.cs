using System.Globalization;
using System.Text;
using PerfLab.Course.Room;
using PerfLab.Notebooks.Views;
using PerfLab.Views.Html;
using static PerfLab.Views.Html.HtmlText;

namespace PerfLab.Course.Site.Pages;

/// <summary>
/// The site's markup: every page's navigation, header and footer, the notes under code cells, the index and the
/// solutions' pages, and the site's own styles; with where pages are and where a link goes, and the facts each page
/// names (the reference machine and the machine that captured the listings). <see cref="CourseSite"/> plans the pages.
/// </summary>
internal sealed class SitePages(string root, string? repository, IReadOnlyList<SiteNotebook> catalog, ReferenceFacts reference, string listingMachine)
{
    /// <summary>The site's styles, after the notebook report's stylesheet.</summary>
    public const string Style = """

        nav.site { max-width: 1040px; margin: 0 auto; padding: 10px 24px; display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 14px; border-bottom: 1px solid var(--border); }
        nav.site .home { font-weight: 600; }
        nav.site .track { color: var(--muted); }
        nav.site .step { margin-left: auto; display: flex; gap: 14px; }
        nav.site.bottom { border-bottom: 0; border-top: 1px solid var(--border); }
        p.note { margin: 6px 0 0; padding: 2px 10px; border-left: 3px solid var(--link); font-size: 14px; color: var(--muted); }
        p.note .missing { color: var(--warn); }
        .run-it code { background: var(--panel); padding: 0.1em 0.3em; border-radius: 4px; font-size: 90%; }
        """;

    private const string RunCommand = "dotnet run --project helpers/PerfLab.Cli -- run notebooks/";

    /// <summary>The address of <paramref name="target"/> (relative to the site's root) from <paramref name="page"/>.</summary>
    public string Relative(string page, string target)
    {
        var from = Path.GetDirectoryName(Path.Combine(root, page))!;
        return Path.GetRelativePath(from, Path.Combine(root, target)).Replace('\\', '/');
    }

    /// <summary>
    /// Where a link of a notebook's prose goes: another notebook's page, the index, a solution's page; a file
    /// outside the site on GitHub (with a repository), else nowhere (its words stay).
    /// </summary>
    /// <param name="page">The page the link is on.</param>
    /// <param name="folder">The notebook's folder under notebooks/ ("" for the top).</param>
    /// <param name="link">The link as written.</param>
    public string? Link(string page, string folder, string link)
    {
        if (link.StartsWith('#') || link.Contains("://", StringComparison.Ordinal) || link.StartsWith("mailto:", StringComparison.OrdinalIgnoreCase))
        {
            return link;
        }

        var end = link.IndexOfAny(['#', '?']);
        var (path, anchor) = end < 0 ? (link, "") : (link[..end], link[end..]);
        var target = Path.GetRelativePath(root, Path.GetFullPath(Path.Combine(root, folder, path))).Replace('\\', '/');
        if (target.EndsWith(".ipynb", StringComparison.OrdinalIgnoreCase) && catalog.Any(n => n.Path == target))
        {
            return Relative(page, Path.ChangeExtension(target, ".html")) + anchor;
        }

        if (target is "README.md")
        {
            return Relative(page, "index.html") + anchor;
        }

        if (target.StartsWith("solutions/", StringComparison.Ordinal) && catalog.Any(n => "solutions/" + n.Solution == target))
        {
            return Relative(page, Path.ChangeExtension(target, ".html"));
        }

        // Outside the site: the repository's own copy, when the site knows where that is.
        var inRepository = target.StartsWith("../", StringComparison.Ordinal) ? target[3..] : CourseRepository.NotebooksFolder + "/" + target;
        return repository is null || inRepository.StartsWith("../", StringComparison.Ordinal)
            ? null
            : $"https://github.com/{repository}/blob/main/{inRepository.TrimEnd('/')}{anchor}";
    }

    /// <summary>The navigation bar: the course's index, the notebook's track, Previous and Next.</summary>
    public string Navigation(string page, int index, string cssClass)
    {
        var html = new StringBuilder();
        html.Append("<nav class=\"site ").Append(cssClass).Append("\"><a class=\"home\" href=\"").Append(Escape(Relative(page, "index.html"))).Append("\">PerfLab course</a>");
        if (index >= 0)
        {
            html.Append("<span class=\"track\">").Append(Escape(TrackName(catalog[index].Track))).Append(" · ").Append(Escape(catalog[index].Number)).Append("</span>");
        }

        html.Append("<span class=\"step\">");
        if (index > 0)
        {
            html.Append("<a rel=\"prev\" href=\"").Append(Escape(Relative(page, catalog[index - 1].Page))).Append("\">← ").Append(Escape(catalog[index - 1].Number)).Append("</a>");
        }

        if (index >= 0 && index + 1 < catalog.Count)
        {
            html.Append("<a rel=\"next\" href=\"").Append(Escape(Relative(page, catalog[index + 1].Page))).Append("\">").Append(Escape(catalog[index + 1].Number)).Append(" →</a>");
        }

        return html.Append("</span></nav>\n").ToString();
    }

    /// <summary>A notebook page's header: navigation, title, where the numbers and the listings come from, how to run it.</summary>
    public string Header(SiteNotebook notebook, int index)
    {
        var html = new StringBuilder(Navigation(notebook.Page, index, "top"));
        // The notebook's own first heading is the page's title.
        html.Append("<header class=\"run\"><dl class=\"facts\">")
            .Append("<dt>Results</dt><dd>the course's reference run: ").Append(Escape(reference.Machine)).Append("; ").Append(Escape(reference.Mode)).Append(" mode, ").Append(Escape(reference.When)).Append("</dd>")
            .Append("<dt>Runtimes</dt><dd>").Append(Escape(reference.Runtimes)).Append("</dd>")
            .Append("<dt>Listings</dt><dd>captured when this site was built, on ").Append(Escape(listingMachine)).Append("</dd>")
            .Append("<dt>Run it</dt><dd class=\"run-it\">").Append(RunIt(notebook)).Append("</dd>")
            .Append("</dl></header>\n");
        return html.ToString();
    }

    /// <summary>The footer: the navigation again and what the page is.</summary>
    public string Footer(string page)
    {
        var index = catalog.ToList().FindIndex(n => n.Page == page);
        return Navigation(page, index, "bottom") + "<footer>A page of the PerfLab course site, written by <code>perflab site</code>. Benchmark tables and charts are the reference run's; listings and generated source are the building machine's.</footer>\n";
    }

    /// <summary>The index: notebooks/README.md, its links pointed at the site's pages.</summary>
    public string IndexPage(string readme)
    {
        var body = MarkdownHtml.ToHtml(readme, link => Link("index.html", "", link));
        return Document("PerfLab: a hands-on course on .NET runtime performance", "index.html",
            Navigation("index.html", -1, "top")
            + "<header class=\"run\"><dl class=\"facts\"><dt>Results</dt><dd>the course's reference run: " + Escape(reference.Machine) + "; " + Escape(reference.Mode) + " mode, " + Escape(reference.When) + "</dd>"
            + "<dt>Runtimes</dt><dd>" + Escape(reference.Runtimes) + "</dd>"
            + "<dt>Run it</dt><dd class=\"run-it\">" + RunIt(null) + "</dd></dl></header>\n"
            + "<main><section class=\"cell markdown\">" + body + "</section></main>\n" + Footer("index.html"));
    }

    /// <summary>A solution file as a page, linked from its notebook's exercise.</summary>
    public string SolutionPage(SiteNotebook notebook, string page, string source)
    {
        var title = "A solution: " + notebook.Title;
        return Document(title, page,
            Navigation(page, -1, "top")
            + "<header class=\"run\"><h1>" + Escape(title) + "</h1><p>For the exercise of <a href=\"" + Escape(Relative(page, notebook.Page)) + "\">" + Escape(notebook.Number) + "</a>; try it first. "
            + "This is notebooks/solutions/" + Escape(notebook.Solution) + ", the code the tests check the exercise with.</p>"
            + "<dl class=\"facts\"><dt>Results</dt><dd>on the notebook's page: the course's reference run, " + Escape(reference.Machine) + "; " + Escape(reference.Mode) + " mode, " + Escape(reference.When) + "</dd>"
            + "<dt>Runtimes</dt><dd>" + Escape(reference.Runtimes) + "</dd></dl></header>\n"
            + "<main><section class=\"cell code\"><pre class=\"source\"><code class=\"language-csharp\">" + CSharpHighlighter.ToHtml(source.ReplaceLineEndings("\n")) + "</code></pre></section></main>\n"
            + Footer(page));
    }

    /// <summary>The notes under a page's code cells, as that page shows them (trusted HTML), by cell index.</summary>
    public IReadOnlyDictionary<int, string> Notes(string page, CellNotes notes) => notes.Cells.ToDictionary(
        cell => cell,
        cell => string.Join("<br>", new[] { notes.Main(cell) is { } main ? Note(page, main) : null }.Concat(notes.Room(cell).Select(RoomNoteHtml)).OfType<string>()));

    /// <summary>A room's note (<see cref="SiteRoom"/>): every string a laptop sent is escaped.</summary>
    public static string RoomNoteHtml(RoomNote note)
    {
        var series = note.Series.Select(s => $"{Escape(s.Name)}: " + string.Join(", ", s.Ratios.Select(x => $"{Escape(x.Laptop)} {Number(x.Ratio)}"))).ToArray();
        var smoke = note.SmokeLaptops.Select(Escape).ToArray();
        return $"In the room ({Escape(note.Export)}), {note.Laptops} {(note.Laptops == 1 ? "laptop" : "laptops")} ran this code"
            + (series.Length == 0 ? "" : ": " + string.Join("; ", series))
            + (smoke.Length == 0 ? "." : $"{(series.Length == 0 ? ":" : ";")} without numbers (smoke mode): {string.Join(", ", smoke)}.");
    }

    private string Note(string page, SiteNote note) => note switch
    {
        ReferenceResultNote r => $"Results of the reference run ({Escape(r.StartedAt.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture))}, {Escape(ModeChoice.Name(r.Mode))} mode); run the notebook for your machine's.",
        MissingResultNote m => $"<span class=\"missing\">No reference result for {Escape(m.Type)} as this cell writes it: the reference run has not measured this code yet (it is new or changed since). Run the notebook to see the numbers.</span>",
        UsesMissingNote u => $"<span class=\"missing\">Not shown here: this cell uses the results of cell {u.Cell + 1}, which the reference run has not measured.</span>",
        ExerciseNote e => $"The exercise, not run here: edit this cell in the notebook, run it, then run its check. A solution: <a href=\"{Escape(Relative(page, e.SolutionPage))}\">{Escape(e.SolutionName)}</a>.",
        ExerciseCheckNote => "The exercise's check, not run here: in the notebook it prints ✓ when your answer is right, or ✗ with a hint.",
        _ => throw new ArgumentOutOfRangeException(nameof(note), note, null),
    };

    private static string Number(RoomRatio ratio) => ratio.Low is { } low && ratio.High is { } high
        ? string.Create(CultureInfo.InvariantCulture, $"{ratio.Ratio:0.00} ({low:0.00}–{high:0.00})")
        : ratio.Ratio.ToString("0.00", CultureInfo.InvariantCulture);

    private string Document(string title, string page, string body) =>
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"color-scheme\" content=\"light dark\">"
        + "<title>" + Escape(title) + "</title><link rel=\"stylesheet\" href=\"" + Escape(Relative(page, CourseSite.Assets + "/site.css")) + "\"></head>\n<body>\n" + body + "</body></html>\n";

    private string RunIt(SiteNotebook? notebook)
    {
        var command = "<code>" + Escape(RunCommand + (notebook?.Path ?? "00-start-here.ipynb")) + "</code> from a clone (README.md: the .NET 10 SDK is all it needs)";
        return repository is null
            ? command
            : "<a href=\"https://codespaces.new/" + Escape(repository) + "\">open the course in GitHub Codespaces</a>, or " + command;
    }

    private static string TrackName(string track) => track switch
    {
        "start" => "Start",
        "jit" => "The JIT",
        "collections" => "Collections",
        "regex" => "Regular expressions and searching",
        "runtime" => "The runtime",
        _ => track,
    };
}
