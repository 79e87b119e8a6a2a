using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using PerfLab.Course;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>data/outline.json gives each notebook the published figures it teaches; each one must be named in it.</summary>
public class CourseOutlineTests
{
    [Fact]
    public void Every_figure_the_outline_gives_a_notebook_is_named_in_it()
    {
        var outline = JsonNode.Parse(File.ReadAllText(CourseRepository.PathOf(CourseRepository.OutlineFile, Repo.Root)))!;
        var unnamed = new List<string>();
        foreach (var (path, ids) in outline["notebooks"]!.AsObject())
        {
            var notebook = NotebookDocument.Load(Path.Combine(Repo.Root, path));
            var lines = notebook.Cells.SelectMany(c => c.Source.Split('\n')).ToArray();
            foreach (var id in ids!.AsArray().Select(i => (string)i!))
            {
                if (!Named(lines, id))
                {
                    unnamed.Add($"{path}: {id}");
                }
            }
        }

        Assert.True(unnamed.Count == 0, "figures the outline gives a notebook that the notebook never names (teach them, or say why not):\n" + string.Join("\n", unnamed));
    }

    // "N10-J38" is named in full, or short after its post's prefix on the same line ("N10-J37, J38").
    private static bool Named(string[] lines, string id)
    {
        var dash = id.IndexOf('-', StringComparison.Ordinal);
        var (post, figure) = (id[..(dash + 1)], id[(dash + 1)..]);
        return lines.Any(line => line.Contains(id, StringComparison.Ordinal)
            || (line.Contains(post, StringComparison.Ordinal) && Regex.IsMatch(line, $@"(?<![-\w]){Regex.Escape(figure)}\b")));
    }
}
