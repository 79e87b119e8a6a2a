using System.Text.RegularExpressions;

namespace PerfLab.Course.Site;

/// <summary>One notebook as the site lists it.</summary>
/// <param name="Number">The index's first column: 00, jit/01, ...</param>
/// <param name="Title">The link text of the index.</param>
/// <param name="Path">The notebook, relative to notebooks/ with '/' (jit/01-tiering-and-pgo.ipynb).</param>
/// <param name="RunTime">The index's last column, its run time in quick mode, as written (with its timing marker: data/timings).</param>
public sealed record SiteNotebook(string Number, string Title, string Path, string RunTime = "")
{
    /// <summary>The track: the notebook's folder (jit, collections, regex), or "start" for 00.</summary>
    public string Track => Path.Contains('/', StringComparison.Ordinal) ? Path[..Path.IndexOf('/', StringComparison.Ordinal)] : "start";

    /// <summary>Its page, relative to the site's root (jit/01-tiering-and-pgo.html).</summary>
    public string Page => System.IO.Path.ChangeExtension(Path, ".html");

    /// <summary>Its exercise's solution file in notebooks/solutions (jit-01-tiering-and-pgo.exercise.cs).</summary>
    public string Solution => System.IO.Path.GetFileNameWithoutExtension(Path.Replace('/', '-')) + ".exercise.cs";
}

/// <summary>
/// The notebooks of the site, in the order of notebooks/README.md's table: the index readers already know is
/// the site's order, its Previous/Next chain and its tracks, so there is no second list to keep in step.
/// </summary>
public static partial class SiteCatalog
{
    /// <summary>The notebooks listed in <paramref name="readme"/>'s table, in order.</summary>
    /// <param name="readme">notebooks/README.md.</param>
    /// <exception cref="PerfLabException">The table lists no notebook, or a listed notebook does not exist.</exception>
    public static IReadOnlyList<SiteNotebook> Read(string readme)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(readme);
        var folder = System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(readme))!;
        var notebooks = new List<SiteNotebook>();
        foreach (var line in File.ReadLines(readme))
        {
            if (Row().Match(line) is { Success: true } row)
            {
                var notebook = new SiteNotebook(row.Groups["number"].Value.Trim(), row.Groups["title"].Value.Trim(), row.Groups["path"].Value.Trim(), line.Trim().TrimEnd('|').Split('|')[^1].Trim());
                if (!File.Exists(System.IO.Path.Combine(folder, notebook.Path)))
                {
                    throw new PerfLabException($"notebooks/README.md lists {notebook.Path}, which does not exist.", "Fix the index's link, or restore the notebook.");
                }

                notebooks.Add(notebook);
            }
        }

        if (notebooks.Count == 0)
        {
            throw new PerfLabException($"{readme} has no table row linking a notebook (| # | [Title](path.ipynb) | ...).", "Restore notebooks/README.md's index table from git.");
        }

        return notebooks;
    }

    [GeneratedRegex(@"^\|\s*(?<number>[^|]+?)\s*\|\s*\[(?<title>[^\]]+)\]\((?<path>[^)#]+\.ipynb)\)\s*\|")]
    private static partial Regex Row();
}
