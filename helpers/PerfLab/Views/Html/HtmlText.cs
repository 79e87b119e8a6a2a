using System.Net;

namespace PerfLab.Views.Html;

/// <summary>What every HTML view and report escapes text with (imported with <c>using static</c>), and how a view opens.</summary>
public static class HtmlText
{
    /// <summary><paramref name="text"/> HTML-encoded, for element content and attribute values.</summary>
    /// <param name="text">Plain text.</param>
    public static string E(string text) => WebUtility.HtmlEncode(text);

    /// <summary>
    /// A view's outer element with its own style block, to be closed with &lt;/div&gt;: every view carries its
    /// CSS so it looks the same as a notebook output, in a report and in a standalone page.
    /// </summary>
    /// <param name="cssClass">The class the view's CSS is scoped to, e.g. perflab-asm.</param>
    /// <param name="style">The view's CSS.</param>
    public static string Open(string cssClass, string style) => $"<div class=\"{cssClass}\"><style>{style}</style>";
}
