using System.Net;

namespace PerfLab.Views.Html;

/// <summary>What every HTML view and report escapes text with (imported with <c>using static</c>), and how a view opens.</summary>
public static class HtmlText
{
    /// <summary><paramref name="text"/> HTML-encoded, for element content and attribute values.</summary>
    /// <param name="text">Plain text.</param>
    public static string Escape(string text) => WebUtility.HtmlEncode(text);

    /// <summary>
    /// A view's outer element with its own style block, to be closed with &lt;/div&gt;: every view carries its
    /// CSS so it looks the same as a notebook output, in a report and in a standalone page.
    /// </summary>
    /// <param name="cssClass">The class the view's CSS is scoped to, e.g. perflab-asm.</param>
    /// <param name="style">The view's CSS.</param>
    public static string Open(string cssClass, string style)
    {
        // JupyterLab (and nbconvert's lab template) right-aligns every cell of an output's table with a rule of two
        // classes and an element. The view's class written twice weighs as much, and comes later in the page: the
        // views' own alignment holds (their numeric columns, declared after this, stay right-aligned).
        var view = cssClass.Split(' ')[0];
        return $"<div class=\"{cssClass}\"><style>.{view}.{view} th, .{view}.{view} td {{ text-align: left; }}\n{style}</style>";
    }
}
