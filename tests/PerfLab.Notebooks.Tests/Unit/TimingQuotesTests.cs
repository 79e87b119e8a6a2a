using System.Text.Json.Nodes;
using PerfLab.Course;
using PerfLab.Course.Timings;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>
/// The run times the docs give are the timings file's (<see cref="TimingQuotes"/>): each carries a marker naming the
/// timing it quotes, a notebook the file has not timed says so, and a timing whose notebook changed since is stale.
/// </summary>
public class TimingQuotesTests
{
    [Fact]
    public void Every_run_time_the_docs_quote_is_the_timings_file_s_and_every_timing_is_current()
    {
        var timings = TimingsFile.Read(Path.Combine(Repo.Root, CourseRepository.TimingsFile));
        var table = TimingQuotes.Table(Repo.Root);
        var course = table.Select(TimingQuotes.PathOf).ToList();
        var documents = TimingQuotes.Documents(Repo.Root).Select(d => (Name: CourseRepository.Relative(d, Repo.Root), Text: File.ReadAllText(d)))
            .Concat(TimingQuotes.NotebookProse(Integration.RunCommandTests.CourseNotebooks(), Repo.Root)).ToList();
        var quotes = documents.SelectMany(d => TimingQuotes.In(d.Name, d.Text)).ToList();

        var problems = quotes.Select(q => TimingQuotes.Check(q, timings, course)).OfType<string>()
            .Concat(documents.SelectMany(d => TimingQuotes.Stray(d.Name, d.Text)))
            .Concat(TimingQuotes.Stale(timings, course, Repo.Root))
            .Concat(TimingQuotes.UnquotedRows(table))
            .ToList();

        Assert.True(problems.Count == 0, $"{problems.Count} problem(s) with the run times the docs quote ({quotes.Count} marked; the file is {CourseRepository.TimingsFile}):\n" + string.Join("\n", problems));
        foreach (var document in new[] { "README.md", "notebooks/README.md", "docs/workshop.md", "notebooks/00-start-here.ipynb" })
        {
            Assert.True(quotes.Any(q => q.Document == document || q.Document.StartsWith(document + ", ", StringComparison.Ordinal)), $"{document} quotes no run time from {CourseRepository.TimingsFile}: did its markers go, or the marker's syntax change?");
        }
    }

    [Fact]
    public void A_wrong_time_a_date_a_missing_cell_and_an_untimed_notebook_with_a_number_are_each_reported_with_what_to_run()
    {
        using var repo = new CourseCopy();
        var timings = repo.Timings(("notebooks/00-start-here.ipynb", 141.2, [("cell 3", 4.1), ("cell 6", 57.0)]));
        IReadOnlyList<string> course = ["notebooks/00-start-here.ipynb", "notebooks/jit/01-demo.ipynb"];

        var quotes = TimingQuotes.In("README.md",
            "Right: 141 s<!-- timing: notebooks/00-start-here.ipynb -->, 2.4 min<!-- timing: notebooks/00-start-here.ipynb -->, " +
            "57 s<!-- timing: notebooks/00-start-here.ipynb cell 6 -->, 2026-11-28<!-- timing: notebooks/00-start-here.ipynb date -->, " +
            "not timed yet<!-- timing: notebooks/jit/01-demo.ipynb -->, not timed yet<!-- timing: course -->.\n" +
            "Wrong: 78 s<!-- timing: notebooks/00-start-here.ipynb -->, 2026-11-26<!-- timing: notebooks/00-start-here.ipynb date -->, " +
            "6 s<!-- timing: notebooks/00-start-here.ipynb cell 9 -->, 65 s<!-- timing: notebooks/jit/01-demo.ipynb -->, " +
            "not timed yet<!-- timing: notebooks/00-start-here.ipynb -->, 3 min<!-- timing: course -->, 9 s<!-- timing: notebooks/gone.ipynb -->.");
        var problems = quotes.Select(q => TimingQuotes.Check(q, timings, course)).ToList();

        Assert.Equal(13, quotes.Count);
        Assert.All(problems.Take(6), Assert.Null);
        Assert.Contains("README.md:2: 78 s<!-- timing: notebooks/00-start-here.ipynb -->: data/timings/quick.json says notebooks/00-start-here.ipynb took 141.2 s (141 s at the precision written), not 78 s", problems[6], StringComparison.Ordinal);
        Assert.Contains("time it again: dotnet run --project helpers/PerfLab.Cli -- run notebooks/00-start-here.ipynb --mode quick --timings data/timings/quick.json", problems[6], StringComparison.Ordinal);
        Assert.Contains("was timed on 2026-11-28, not 2026-11-26", problems[7], StringComparison.Ordinal);
        Assert.Contains("has no cell 9 (its code cells: cell 3, cell 6)", problems[8], StringComparison.Ordinal);
        Assert.Contains("has no timing of notebooks/jit/01-demo.ipynb: write \"not timed yet\", or time it: dotnet run --project helpers/PerfLab.Cli -- run notebooks/jit/01-demo.ipynb --mode quick --timings data/timings/quick.json", problems[9], StringComparison.Ordinal);
        Assert.Contains("has notebooks/00-start-here.ipynb timed (141.2 s on 2026-11-28): quote it", problems[10], StringComparison.Ordinal);
        Assert.Contains("1 of the course's 2 notebooks have no timing in data/timings/quick.json (notebooks/jit/01-demo.ipynb): write \"not timed yet\", or time the whole course: dotnet run --project helpers/PerfLab.Cli -- run notebooks --mode quick", problems[11], StringComparison.Ordinal);
        Assert.Contains("notebooks/gone.ipynb is not a notebook of notebooks/README.md's table", problems[12], StringComparison.Ordinal);
    }

    [Fact]
    public void The_course_total_sums_every_notebook_once_all_are_timed()
    {
        using var repo = new CourseCopy();
        var timings = repo.Timings(("notebooks/00-start-here.ipynb", 141.2, []), ("notebooks/jit/01-demo.ipynb", 218.8, []));
        IReadOnlyList<string> course = ["notebooks/00-start-here.ipynb", "notebooks/jit/01-demo.ipynb"];

        var quotes = TimingQuotes.In("docs/workshop.md", "6 min<!-- timing: course -->, 6.0 min<!-- timing: course -->, 6.1 min<!-- timing: course -->, not timed yet<!-- timing: course -->");

        Assert.Null(TimingQuotes.Check(quotes[0], timings, course));
        Assert.Null(TimingQuotes.Check(quotes[1], timings, course));
        Assert.Contains("says the whole course took 6 min (6.0 min at the precision written), not 6.1 min", TimingQuotes.Check(quotes[2], timings, course), StringComparison.Ordinal);
        Assert.Contains("has every notebook of the course timed (360.0 s in all): quote it", TimingQuotes.Check(quotes[3], timings, course), StringComparison.Ordinal);
    }

    [Fact]
    public void A_timing_of_changed_code_or_of_a_notebook_outside_the_table_is_stale_and_prose_changes_are_not()
    {
        using var repo = new CourseCopy();
        var timings = repo.Timings(("notebooks/00-start-here.ipynb", 141.2, []), ("notebooks/jit/01-demo.ipynb", 60.0, []));
        IReadOnlyList<string> course = ["notebooks/00-start-here.ipynb"];

        Assert.Equal(["data/timings/quick.json times notebooks/jit/01-demo.ipynb, which is not a notebook of notebooks/README.md's table: add it to the table, or remove its entry"], TimingQuotes.Stale(timings, course, repo.Path));

        repo.Notebook("notebooks/00-start-here.ipynb", "# Start, reworded", "var x = 1 + 1;");
        Assert.Single(TimingQuotes.Stale(timings, course, repo.Path));

        repo.Notebook("notebooks/00-start-here.ipynb", "# Start", "var x = 1 + 2;");
        var stale = TimingQuotes.Stale(timings, course, repo.Path).ToList();
        Assert.Equal(2, stale.Count);
        Assert.Contains("notebooks/00-start-here.ipynb: its code changed since it was timed on 2026-11-28", stale[0], StringComparison.Ordinal);
        Assert.Contains("time it again: dotnet run --project helpers/PerfLab.Cli -- run notebooks/00-start-here.ipynb --mode quick --timings data/timings/quick.json", stale[0], StringComparison.Ordinal);
    }

    [Fact]
    public void A_table_row_without_its_quote_or_with_a_hand_written_number_and_a_stray_marker_are_reported()
    {
        using var repo = new CourseCopy();
        repo.Notebook("notebooks/jit/02-demo.ipynb", "# Two", "var y = 2;");
        repo.Write("notebooks/README.md", string.Join('\n',
            "| # | Notebook | Goal | Run time, quick mode |",
            "|---|---|---|---|",
            "| 00 | [Start](00-start-here.ipynb) | Start | 141 s<!-- timing: notebooks/00-start-here.ipynb --> |",
            "| jit/01 | [One](jit/01-demo.ipynb) | One | ~1 min (measured: 69 s on a 2-core machine) |",
            "| jit/02 | [Two](jit/02-demo.ipynb) | Two | not timed yet<!-- timing: notebooks/jit/02-demo.ipynb --> (was 68 s) |",
            ""));

        var rows = TimingQuotes.UnquotedRows(TimingQuotes.Table(repo.Path)).ToList();
        var text = "It takes <!-- timing: notebooks/00-start-here.ipynb --> about a minute.\nIt takes 141 s<!-- timing: notebooks/00-start-here.ipynb -->.\n" +
            "Shown as code, not quoted: `9 s<!-- timing: notebooks/00-start-here.ipynb -->`, `<!-- timing: x -->`.\n```\n8 s<!-- timing: notebooks/00-start-here.ipynb -->\n```\n";
        var stray = TimingQuotes.Stray("README.md", text).ToList();
        Assert.Single(TimingQuotes.In("README.md", text));

        Assert.Equal(2, rows.Count);
        Assert.Contains("row jit/01: its run time \"~1 min (measured: 69 s on a 2-core machine)\" does not quote notebooks/jit/01-demo.ipynb's timing: write \"not timed yet<!-- timing: notebooks/jit/01-demo.ipynb -->\"", rows[0], StringComparison.Ordinal);
        Assert.Contains("row jit/02: its run time \"not timed yet<!-- timing: notebooks/jit/02-demo.ipynb --> (was 68 s)\" has a number besides the quoted one (\"(was 68 s)\")", rows[1], StringComparison.Ordinal);
        Assert.Equal(["README.md:1: \"<!-- timing: notebooks/00-start-here.ipynb -->\" does not follow a run time (write it right after \"141 s\", \"2.4 min\", a date or \"not timed yet\")"], stray);
    }

    // A repository of two small notebooks and a timings file made by hand, as TimingsFile writes it.
    private sealed class CourseCopy : IDisposable
    {
        private readonly TempFolder _folder = new();

        public CourseCopy()
        {
            Notebook("notebooks/00-start-here.ipynb", "# Start", "var x = 1 + 1;");
            Notebook("notebooks/jit/01-demo.ipynb", "# One", "var y = 1;");
            Write("notebooks/README.md", "| # | Notebook | Goal | Run time |\n|---|---|---|---|\n| 00 | [Start](00-start-here.ipynb) | Start | x |\n| jit/01 | [One](jit/01-demo.ipynb) | One | x |\n");
        }

        public string Path => _folder.Path;

        public void Write(string relative, string text) => _folder.Write(relative, text);

        public void Notebook(string relative, string title, string code) => Write(relative, Json(Metadata(), Markdown(title), Code(code)));

        public TimingsFile Timings(params (string Notebook, double Seconds, (string Cell, double Seconds)[] Cells)[] entries)
        {
            var notebooks = new JsonArray();
            foreach (var (notebook, seconds, cells) in entries)
            {
                notebooks.Add(new JsonObject
                {
                    ["notebook"] = notebook,
                    ["code"] = TimingsFile.ContentKey(NotebookDocument.Load(System.IO.Path.Combine(Path, notebook))),
                    ["seconds"] = seconds,
                    ["started"] = "2026-11-28T13:39:11+00:00",
                    ["commit"] = "a359e6b62720ea87e05394f296f95eef902fd0e0",
                    ["uncommittedChanges"] = false,
                    ["machine"] = new JsonObject { ["name"] = "linux-x64-vm", ["platform"] = "linux-x64", ["os"] = "Debian GNU/Linux 12 (bookworm)", ["processor"] = "Intel(R) Xeon(R) Processor", ["logicalCores"] = 2, ["memoryBytes"] = 25276514304, ["sdk"] = "10.0.401", ["runner"] = null },
                    ["load"] = new JsonObject { ["start"] = new JsonArray(0.5, 0.4, 0.3), ["end"] = new JsonArray(1.2, 0.6, 0.4) },
                    ["cells"] = new JsonArray([.. cells.Select(c => (JsonNode)new JsonObject { ["cell"] = c.Cell, ["seconds"] = c.Seconds })]),
                });
            }

            var file = _folder.Write(CourseRepository.TimingsFile, new JsonObject { ["schema"] = TimingsFile.Schema, ["mode"] = "quick", ["caches"] = TimingsFile.CachesNote, ["notebooks"] = notebooks }.ToJsonString());
            return TimingsFile.Read(file);
        }

        public void Dispose() => _folder.Dispose();
    }
}
