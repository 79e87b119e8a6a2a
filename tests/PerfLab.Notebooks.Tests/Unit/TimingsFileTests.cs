using PerfLab.Contract;
using PerfLab.Course.Timings;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Results;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>The timings file `perflab run --timings` writes (<see cref="TimingsFile"/>): what an entry holds, and a run of some notebooks losing none of the others.</summary>
public class TimingsFileTests
{
    private static readonly MachineDescription Machine = new("linux-x64-vm", "linux-x64", "Debian GNU/Linux 12 (bookworm)", "Intel(R) Xeon(R) Processor", 2, 25276514304, "10.0.401", null);

    private static readonly LoadAverages Load = new([0.5, 0.4, 0.3], [1.2, 0.6, 0.4]);

    private static NotebookRun RunOf(string code, double seconds)
    {
        var run = Run(Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code(code)), new Dictionary<int, CellOutput[]>(), mode: BenchmarkMode.Quick);
        return run with { Duration = TimeSpan.FromSeconds(seconds) };
    }

    [Fact]
    public async Task A_run_of_some_notebooks_replaces_their_entries_and_keeps_the_others()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "data", "timings", "quick.json");
        var first = TimingsFile.Open(path, BenchmarkMode.Quick);
        first.Record(TimingsFile.Timing("notebooks/00-start-here.ipynb", RunOf("var x = 1;", 141.23), Load, "a359e6b", false, Machine));
        first.Record(TimingsFile.Timing("notebooks/jit/02-stack-allocation.ipynb", RunOf("var y = 2;", 219.96), Load, "a359e6b", false, Machine));
        await first.WriteAsync(CancellationToken.None);

        var again = TimingsFile.Open(path, BenchmarkMode.Quick);
        again.Record(TimingsFile.Timing("notebooks/00-start-here.ipynb", RunOf("var x = 1;", 90.04), Load, "b470f7c", true, Machine));
        await again.WriteAsync(CancellationToken.None);
        var read = TimingsFile.Read(path);

        Assert.Equal(["notebooks/00-start-here.ipynb", "notebooks/jit/02-stack-allocation.ipynb"], read.Notebooks.Select(n => n.Notebook));
        Assert.Equal(90.0, read.Of("notebooks/00-start-here.ipynb")!.Seconds);
        Assert.Equal("b470f7c", read.Of("notebooks/00-start-here.ipynb")!.Commit);
        Assert.True(read.Of("notebooks/00-start-here.ipynb")!.UncommittedChanges);
        Assert.Equal(220.0, read.Of("notebooks/jit/02-stack-allocation.ipynb")!.Seconds);
        Assert.Equal(BenchmarkMode.Quick, read.Mode);
    }

    [Fact]
    public void An_entry_holds_the_total_each_code_cell_the_code_s_key_the_date_the_machine_and_the_load()
    {
        var run = RunOf("var x = 1;", 141.23);

        var timing = TimingsFile.Timing("notebooks/00-start-here.ipynb", run, Load, "a359e6b", false, Machine);

        Assert.Equal(141.2, timing.Seconds);
        Assert.Equal([new CellTiming("cell 2", 0.1), new CellTiming("cell 3", 0.1)], timing.Cells);
        Assert.Equal(TimingsFile.ContentKey(run.Notebook), timing.Code);
        Assert.Equal(new DateTimeOffset(2026, 11, 23, 9, 30, 0, TimeSpan.Zero), timing.Started);
        Assert.Equal(Machine, timing.Machine);
        Assert.Equal(Load, timing.Load);
    }

    [Fact]
    public void The_content_key_changes_with_any_code_and_not_with_prose_or_line_endings()
    {
        var key = TimingsFile.ContentKey(Notebook(Metadata(), Markdown("# Demo"), Code("var x = 1;\nvar y = 2;")));

        Assert.Equal(key, TimingsFile.ContentKey(Notebook(Metadata(), Markdown("# Demo, reworded"), Code("var x = 1;\r\nvar y = 2;"))));
        Assert.NotEqual(key, TimingsFile.ContentKey(Notebook(Metadata(), Markdown("# Demo"), Code("var x = 1;\nvar y = 3;"))));
        Assert.NotEqual(key, TimingsFile.ContentKey(Notebook(Metadata(), Markdown("# Demo"), Code("var x = 1;"), Code("var y = 2;"))));
    }

    [Fact]
    public void A_failed_run_is_not_a_timing()
    {
        var failed = Run(Notebook(Metadata(), Code("throw new Exception();")), new Dictionary<int, CellOutput[]>(), failedCell: 0, mode: BenchmarkMode.Quick);

        Assert.Throws<ArgumentException>(() => TimingsFile.Timing("notebooks/00-start-here.ipynb", failed, Load, "a359e6b", false, Machine));
    }

    [Fact]
    public async Task A_file_of_another_mode_or_another_schema_is_refused_with_what_to_do()
    {
        using var folder = new TempFolder();
        var path = Path.Combine(folder.Path, "smoke.json");
        var smoke = TimingsFile.Open(path, BenchmarkMode.Smoke);
        smoke.Record(TimingsFile.Timing("notebooks/00-start-here.ipynb", RunOf("var x = 1;", 30), Load, "a359e6b", false, Machine));
        await smoke.WriteAsync(CancellationToken.None);
        var other = folder.Write("other.json", "{\"schema\": \"perflab-reference/1\"}");

        var mode = Assert.Throws<PerfLabException>(() => TimingsFile.Open(path, BenchmarkMode.Quick));
        var schema = Assert.Throws<PerfLabException>(() => TimingsFile.Open(other, BenchmarkMode.Quick));

        Assert.Equal($"--timings {path} holds smoke-mode timings; this run is in quick mode.", mode.Message);
        Assert.Equal("A file holds one mode: run with --mode smoke, or give another file.", mode.Fix);
        Assert.Contains("is schema perflab-reference/1, not perflab-timings/1", schema.Message, StringComparison.Ordinal);
    }
}
