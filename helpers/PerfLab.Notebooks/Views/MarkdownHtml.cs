using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using Markdig;
using Markdig.Renderers;
using Markdig.Syntax;
using Markdig.Syntax.Inlines;

namespace PerfLab.Notebooks.Views;

/// <summary>
/// Markdown cells as HTML for a report page: Markdig's advanced extensions (pipe tables, task lists,
/// auto identifiers...), raw HTML encoded rather than passed through (except a folded notes block:
/// <c>&lt;details&gt;</c>, a plain <c>&lt;summary&gt;</c>, markdown, <c>&lt;/details&gt;</c>, each tag on its own line), HTML comments dropped (Jupyter's own
/// renderers hide them; the prose's reference markers are comments), links to other notebooks pointed at
/// their reports (or wherever the caller's <c>links</c> says), and remote images turned into links so the page
/// never fetches anything.
/// </summary>
public static partial class MarkdownHtml
{
    private static readonly MarkdownPipeline Pipeline = new MarkdownPipelineBuilder()
        .UseAdvancedExtensions()
        .DisableHtml()
        .Build();

    /// <summary>The markdown as an HTML fragment.</summary>
    /// <param name="markdown">The cell's text.</param>
    /// <param name="links">Where each link as written goes, or null to keep its text without a link; default: <see cref="ReportLink"/>.</param>
    public static string ToHtml(string markdown, Func<string, string?>? links = null)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        links ??= ReportLink;

        // The one piece of raw HTML a cell may hold: a folded block of notes (docs/notebooks.md, "Measurement notes"),
        // a <details> line, a <summary> line of plain text, markdown, a </details> line. Everything else stays encoded.
        var html = new StringBuilder();
        var from = 0;
        foreach (Match notes in NotesPattern().Matches(markdown))
        {
            html.Append(Render(markdown[from..notes.Index], links))
                .Append("<details class=\"notes\"><summary>").Append(WebUtility.HtmlEncode(notes.Groups["summary"].Value.Trim())).Append("</summary>\n")
                .Append(Render(notes.Groups["body"].Value, links))
                .Append("</details>\n");
            from = notes.Index + notes.Length;
        }

        return html.Append(Render(markdown[from..], links)).ToString();
    }

    private static string Render(string markdown, Func<string, string?> links)
    {
        if (markdown.Trim().Length == 0)
        {
            return "";
        }

        var document = Markdown.Parse(CommentPattern().Replace(markdown, ""), Pipeline);
        foreach (var link in document.Descendants<LinkInline>().ToList())
        {
            if (link.Url is null)
            {
                continue;
            }

            if (link.IsImage && HasScheme(link.Url) && !link.Url.StartsWith("data:", StringComparison.OrdinalIgnoreCase))
            {
                // An <img> to a web address is a request; a link is not. The alt text becomes the link text.
                link.IsImage = false;
            }
            else if (!link.IsImage && links(link.Url) is { } target)
            {
                link.Url = target;
            }
            else if (!link.IsImage)
            {
                // No page to point at: the words stay, the link goes.
                while (link.FirstChild is { } child)
                {
                    child.Remove();
                    link.InsertBefore(child);
                }

                link.Remove();
            }
        }

        using var writer = new StringWriter();
        var renderer = new HtmlRenderer(writer);
        Pipeline.Setup(renderer);
        renderer.Render(document);
        writer.Flush();
        return writer.ToString();
    }

    /// <summary>A relative link to a notebook, pointed at that notebook's report (same name, .html); other links unchanged.</summary>
    /// <param name="url">The link as written.</param>
    public static string ReportLink(string url)
    {
        ArgumentNullException.ThrowIfNull(url);
        if (HasScheme(url))
        {
            return url;
        }

        var end = url.IndexOfAny(['#', '?']);
        var path = end < 0 ? url : url[..end];
        return path.EndsWith(".ipynb", StringComparison.OrdinalIgnoreCase)
            ? path[..^".ipynb".Length] + ".html" + (end < 0 ? "" : url[end..])
            : url;
    }

    private static bool HasScheme(string url) => SchemePattern().IsMatch(url);

    [GeneratedRegex(@"^<details>[ \t]*\r?\n<summary>(?<summary>[^<\r\n]*)</summary>[ \t]*\r?\n(?<body>.*?)^</details>[ \t]*$", RegexOptions.Singleline | RegexOptions.Multiline)]
    private static partial Regex NotesPattern();

    [GeneratedRegex("<!--.*?-->", RegexOptions.Singleline)]
    private static partial Regex CommentPattern();

    [GeneratedRegex("^[A-Za-z][A-Za-z0-9+.-]*:")]
    private static partial Regex SchemePattern();
}
