using System.Text.RegularExpressions;

namespace PerfLab.Setup.Tests.Support;

/// <summary>
/// .gitattributes read as git reads it, for the two attributes that decide a checkout's line endings
/// (text and eol): the last matching line sets each attribute; a pattern without a slash matches a file's name
/// at any depth, one with a slash matches the path from the root; <c>binary</c> unsets text.
/// </summary>
public sealed class GitAttributes
{
    private readonly List<(Regex Pattern, string[] Attributes)> _lines = [];

    public GitAttributes(string text)
    {
        foreach (var raw in text.Split('\n'))
        {
            var line = raw.Trim();
            if (line.Length == 0 || line.StartsWith('#'))
            {
                continue;
            }

            var parts = line.Split([' ', '\t'], StringSplitOptions.RemoveEmptyEntries);
            _lines.Add((Glob(parts[0]), parts[1..]));
        }
    }

    /// <summary>Whether a checkout writes this file ('/'-separated, relative to the root) with LF line endings.</summary>
    public bool ChecksOutWithLf(string path)
    {
        string? text = null, eol = null;
        foreach (var (pattern, attributes) in _lines.Where(l => l.Pattern.IsMatch(path)))
        {
            foreach (var attribute in attributes)
            {
                switch (attribute)
                {
                    case "binary" or "-text": text = "unset"; break;
                    case "text": text = "set"; break;
                    case "text=auto": text = "auto"; break;
                    case "!text": text = null; break;
                    case "-eol" or "!eol": eol = null; break;
                    default:
                        if (attribute.StartsWith("eol=", StringComparison.Ordinal))
                        {
                            eol = attribute["eol=".Length..];
                        }

                        break;
                }
            }
        }

        // eol=lf makes a file text unless text is unset (then git converts nothing and the autocrlf of the clone rules).
        return eol == "lf" && text != "unset";
    }

    private static Regex Glob(string pattern)
    {
        var anchored = pattern.Contains('/', StringComparison.Ordinal);
        var body = Regex.Escape(pattern.TrimStart('/'))
            .Replace(@"\*\*/", "(?:.*/)?", StringComparison.Ordinal)
            .Replace(@"/\*\*", "/.*", StringComparison.Ordinal)
            .Replace(@"\*", "[^/]*", StringComparison.Ordinal)
            .Replace(@"\?", "[^/]", StringComparison.Ordinal);
        return new Regex(anchored ? $"^{body}$" : $"(?:^|/){body}$", RegexOptions.CultureInvariant);
    }
}
