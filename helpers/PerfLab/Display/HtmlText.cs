using System.Net;

namespace PerfLab.Display;

/// <summary>What every HTML view of Display/ escapes text with (imported with <c>using static</c>).</summary>
internal static class HtmlText
{
    /// <summary><paramref name="text"/> HTML-encoded, for element content and attribute values.</summary>
    /// <param name="text">Plain text.</param>
    public static string E(string text) => WebUtility.HtmlEncode(text);
}
