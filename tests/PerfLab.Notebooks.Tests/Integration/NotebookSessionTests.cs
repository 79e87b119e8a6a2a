using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>The cell engine the kernel and the runner share: real Roslyn scripting, real benchmark processes.</summary>
public class NotebookSessionTests
{
    private static string Setup => SetupCell.For(Path.Combine(Repo.Notebooks, "any.ipynb"), Repo.Root);

    [Fact]
    public async Task State_carries_from_cell_to_cell_and_a_trailing_expression_is_displayed()
    {
        using var cells = new CellRecorder();
        var first = await cells.RunAsync("var answer = 40;");
        var second = await cells.RunAsync("answer + 2");
        var third = await cells.RunAsync("answer + 3;");

        Assert.True(first.Outcome.Succeeded, first.ToString());
        Assert.Null(first.Result);
        Assert.Equal("42", second.ResultText);
        Assert.Null(third.Result);
        Assert.Equal([1, 2, 3], new[] { first, second, third }.Select(c => c.Outcome.ExecutionCount));
    }

    [Fact]
    public async Task Console_output_streams_into_the_cell_while_it_runs()
    {
        using var cells = new CellRecorder();
        var cell = await cells.RunAsync("Console.WriteLine(\"first\"); await Task.Delay(1500); Console.WriteLine(\"second\");");

        Assert.True(cell.Outcome.Succeeded, cell.ToString());
        Assert.Equal("first\nsecond\n", cell.Stdout);
        // Measured between the two lines, not from the cell's start, which also counts compiling the cell
        // (over a second on a busy machine): streamed, they arrive about the delay apart; buffered, together.
        var first = cell.Timed.First(t => t.Output is StreamOutput s && s.Text.Contains("first", StringComparison.Ordinal));
        var second = cell.Timed.First(t => t.Output is StreamOutput s && s.Text.Contains("second", StringComparison.Ordinal));
        Assert.True(second.At - first.At > TimeSpan.FromSeconds(1), $"the first line arrived at {first.At}, the second at {second.At}: output is not streamed while the cell runs");
    }

    [Fact]
    public async Task A_compile_error_points_at_the_cells_line_and_the_session_stays_usable()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync("var kept = 7;");
        var broken = await cells.RunAsync("var a = 1;\nvar b = a +* 2;\n");
        var after = await cells.RunAsync("kept");

        Assert.False(broken.Outcome.Succeeded);
        Assert.NotNull(broken.Error);
        Assert.Equal("CompilationError", broken.Error!.Name);
        Assert.Contains("(2,", broken.Error.Details[0], StringComparison.Ordinal);
        Assert.Contains("var b = a +* 2;", string.Join("\n", broken.Error.Details), StringComparison.Ordinal);
        Assert.Equal("7", after.ResultText);
    }

    [Fact]
    public async Task An_exception_shows_its_message_and_later_cells_still_run()
    {
        using var cells = new CellRecorder();
        var thrown = await cells.RunAsync("var before = 1;\nthrow new InvalidOperationException(\"the reader's own failure\");");
        var after = await cells.RunAsync("before + 1");

        Assert.False(thrown.Outcome.Succeeded);
        Assert.Equal("InvalidOperationException", thrown.Error?.Name);
        Assert.Contains("the reader's own failure", thrown.Error!.Message, StringComparison.Ordinal);
        Assert.True(after.Outcome.Succeeded, after.ToString());
        Assert.Equal("2", after.ResultText);
    }

    [Fact]
    public async Task A_readers_own_plotly_net_chart_displays_with_the_courses_plotly_js_and_no_cdn()
    {
        using var cells = new CellRecorder();
        var setup = await cells.RunAsync(Setup);
        var csharp = await cells.RunAsync("using Plotly.NET.CSharp;\nvar mine = Chart.Column<double, string, string>(values: new[] { 4.2, 1.3 }, Keys: new[] { \"net9.0\", \"net10.0\" }, Name: \"ns\");\nmine");
        // Plotly.NET's own (F#) API on the same chart objects: Chart.combine.
        var combined = await cells.RunAsync("Plotly.NET.Chart.combine(new[] { mine, Chart.Line<int, double, string>(x: new[] { 0, 1 }, y: new[] { 2.0, 3.0 }) })");

        Assert.True(setup.Outcome.Succeeded, setup.ToString());
        foreach (var cell in new[] { csharp, combined })
        {
            Assert.True(cell.Outcome.Succeeded, cell.ToString());
            var html = cell.Result!.Data["text/html"];
            Assert.Contains("class=\"chart\"", html, StringComparison.Ordinal);
            Assert.Contains("Plotly.newPlot(", html, StringComparison.Ordinal);
            Assert.DoesNotContain("<script src=", html, StringComparison.Ordinal);
            Assert.DoesNotContain("require.config", html, StringComparison.Ordinal);
        }

        Assert.Contains("\"net10.0\"", csharp.Result!.Data["text/html"], StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_setup_cell_loads_the_helpers_the_kernel_already_runs_and_shows_the_runtimes()
    {
        using var cells = new CellRecorder();
        var setup = await cells.RunAsync(Setup);
        var same = await cells.RunAsync("typeof(Lab).Assembly.Location");

        Assert.True(setup.Outcome.Succeeded, setup.ToString());
        Assert.Contains("net8.0", setup.ResultText, StringComparison.Ordinal);
        Assert.Contains("Mode: smoke", setup.ResultText, StringComparison.Ordinal);
        Assert.True(setup.Result!.Data.ContainsKey("text/html"), "the setup cell's result has no HTML view");
        Assert.Equal(typeof(Lab).Assembly.Location, same.ResultText);
    }

    [Fact]
    public async Task Helpers_that_are_not_built_fail_with_the_build_command()
    {
        using var folder = new TempFolder();
        using var cells = new CellRecorder(folder.Path);
        var setup = await cells.RunAsync(SetupCell.Text("../nowhere/bin/lab"));

        Assert.False(setup.Outcome.Succeeded);
        Assert.Contains("fix: The course helpers are not built. From the repository root run: dotnet build helpers/PerfLab.Notebooks", string.Join("\n", setup.Error!.Details), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_nuget_reference_is_refused_with_a_reason()
    {
        using var cells = new CellRecorder();
        var cell = await cells.RunAsync("#r \"nuget: Newtonsoft.Json, 13.0.1\"\n1");

        Assert.False(cell.Outcome.Succeeded);
        Assert.Contains("does not load NuGet packages", string.Join("\n", cell.Error!.Details), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Interrupting_a_loop_that_never_stops_abandons_it_and_the_session_goes_on()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync("var ready = 5;");
        using var interrupt = new CancellationTokenSource(TimeSpan.FromSeconds(1));
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var looping = await cells.RunAsync("while (true) { }", interrupt.Token);
        var elapsed = clock.Elapsed;
        var after = await cells.RunAsync("ready");

        Assert.False(looping.Outcome.Succeeded);
        Assert.Equal("Interrupted", looping.Error?.Name);
        Assert.Contains("Restart the kernel", string.Join("\n", looping.Error!.Details), StringComparison.Ordinal);
        Assert.True(elapsed < TimeSpan.FromSeconds(15), $"the interrupt took {elapsed}");
        Assert.Equal("5", after.ResultText);
    }

    [Fact]
    public async Task A_benchmark_cell_runs_its_class_out_of_process_and_displays_the_table()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync("""
            public class CellSum
            {
                private readonly int[] _data = Enumerable.Range(0, 100).ToArray();
                [Benchmark] public int Sum() => _data.Sum();
            }
            await Lab.RunAsync<CellSum>(runtimes: ["net10.0"])
            """);

        Assert.True(cell.Outcome.Succeeded, cell.ToString());
        Assert.Contains("net10.0", cell.Stdout, StringComparison.Ordinal); // progress printed as it ran
        var html = cell.Result!.Data["text/html"];
        Assert.Contains("<table", html, StringComparison.Ordinal);
        Assert.Contains("Sum", html, StringComparison.Ordinal);
        Assert.Contains("smoke", cell.ResultText, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_session_whose_runs_read_only_bytes_measures_each_quick_run_afresh_and_caches_none()
    {
        // The exercise tests' sessions (ExerciseAnswers): their quick runs share the measuring lock, as a request that
        // reads only bytes does, so their times, taken beside other work, are not kept for a later run to show.
        using var cells = new CellRecorder(mode: PerfLab.Contract.BenchmarkMode.Quick, readsOnlyBytes: true);
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync("""
            public class BytesOnlySum
            {
                private readonly int[] _data = Enumerable.Range(0, 100).ToArray();
                [Benchmark] public int Sum() => _data.Sum();
            }
            var first = await Lab.RunAsync<BytesOnlySum>(runtimes: ["net10.0"], launches: 1);
            var second = await Lab.RunAsync<BytesOnlySum>(runtimes: ["net10.0"], launches: 1);
            $"{first.Mode} bytes measured: {first.Results.Single().AllocatedBytes is not null}, second cached: {second.Results.Single().Cached}"
            """);

        Assert.True(cell.Outcome.Succeeded, cell.ToString());
        Assert.Equal("Quick bytes measured: True, second cached: False", cell.ResultText);
    }

    [Fact]
    public async Task A_benchmark_class_that_compiles_in_the_cell_without_usings_compiles_for_the_runtimes_too()
    {
        Assert.True(DefaultNamespaceUses.CoversTheList);
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync($$"""
            {{DefaultNamespaceUses.Class("EveryDefaultNamespace")}}
            var direct = new EveryDefaultNamespace().Use();
            var run = await Lab.RunAsync<EveryDefaultNamespace>(runtimes: ["net10.0"]);
            $"{direct} {run.Mode} {run.HasErrors}"
            """);

        Assert.True(cell.Outcome.Succeeded, cell.ToString());
        Assert.Equal($"{DefaultNamespaceUses.Sum} Smoke False", cell.ResultText);
    }

    [Fact]
    public async Task A_cell_uses_the_benchmark_inputs_with_a_using_in_the_kernel_and_in_the_benchmark_process()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var direct = await cells.RunAsync("using PerfLab.Inputs;\nCorpus.Prose(10) + \"|\" + PostInputs.UrlEncoded");
        var cell = await cells.RunAsync("""
            using PerfLab.Inputs;
            public class CorpusLines
            {
                private readonly string _text = Corpus.Prose(10_000);
                [Benchmark] public int Lines() => _text.Split("\r\n").Length;
            }
            var run = await Lab.RunAsync<CorpusLines>(runtimes: ["net10.0"]);
            $"{run.HasErrors} {run.Results.Count}"
            """);

        Assert.True(direct.Outcome.Succeeded, direct.ToString());
        Assert.Equal("CHAPTER I.|aaaaabbbbb%e2%98%ba%ef%b8%8f", direct.ResultText);
        Assert.True(cell.Outcome.Succeeded, cell.ToString());
        Assert.Equal("False 1", cell.ResultText);
    }

    [Fact]
    public async Task A_benchmark_that_never_returns_is_stopped_by_its_timeout_with_a_clear_message()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync("""
            public class NeverEnds
            {
                [Benchmark] public void Spin() { while (true) { } }
            }
            var run = await Lab.RunAsync<NeverEnds>(runtimes: ["net10.0"], caseTimeoutSeconds: 5);
            run.Results[0].Error
            """);
        var after = await cells.RunAsync("1 + 1");

        Assert.True(cell.Outcome.Succeeded, cell.ToString());
        Assert.Contains("5 s", cell.ResultText, StringComparison.Ordinal);
        Assert.Equal("2", after.ResultText);
    }

    [Fact]
    public async Task A_benchmark_case_that_throws_fails_its_cell_after_the_table_naming_the_case_and_the_reason()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync($$"""
            using System.Text.RegularExpressions;
            public class Unclosed
            {
                private readonly Regex _pattern = new("(unclosed");
                [Benchmark] public bool Match() => _pattern.IsMatch("abc {{Guid.NewGuid():N}}");
            }
            await Lab.RunAsync<Unclosed>(runtimes: ["net10.0"])
            """);

        Assert.False(cell.Outcome.Succeeded, cell.ToString());
        Assert.True(cell.Result?.Data["text/html"].Contains("class=\"perflab-results\"", StringComparison.Ordinal) == true, $"The table is not shown before the error:\n{cell}");
        Assert.Equal("BenchmarkCaseFailed", cell.Error?.Name);
        Assert.StartsWith("A benchmark case failed: Unclosed.Match on net10.0: System.Text.RegularExpressions.RegexParseException: Invalid pattern '(unclosed'", cell.Error!.Message, StringComparison.Ordinal);
        Assert.Contains("net10.0 case 1/1 Match failed: System.Text.RegularExpressions.RegexParseException", cell.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_unknown_runtime_is_one_clear_message()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync("""
            public class Tiny { [Benchmark] public int One() => 1; }
            await Lab.RunAsync<Tiny>(runtimes: ["net7.0"])
            """);

        Assert.False(cell.Outcome.Succeeded);
        Assert.Equal("PerfLabException", cell.Error?.Name);
        Assert.Contains("net7.0", cell.Error!.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(cell.Error.Details, d => d.Contains("   at ", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_benchmark_class_from_another_cell_is_refused_with_the_reason()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        await cells.RunAsync("public class Elsewhere { [Benchmark] public int One() => 1; }");
        var cell = await cells.RunAsync("await Lab.RunAsync<Elsewhere>()");

        Assert.False(cell.Outcome.Succeeded);
        Assert.Contains("not declared in this cell", cell.Error!.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_asm_cell_shows_the_chosen_variant_of_each_runtimes_code()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync("""
            public class Squares
            {
                private readonly int[] _data = Enumerable.Range(0, 64).ToArray();
                [Benchmark] public int SumOfSquares() { var s = 0; foreach (var x in _data) s += x * x; return s; }
            }
            await Lab.AsmAsync<Squares>(AsmVariant.FullOpts, "SumOfSquares")
            """);

        Assert.True(cell.Outcome.Succeeded, cell.ToString());
        Assert.Contains("FullOpts (tiering off)", cell.ResultText, StringComparison.Ordinal);
        Assert.Contains("SumOfSquares", cell.Result!.Data["text/html"], StringComparison.Ordinal);
        Assert.Contains("net10.0", cell.ResultText, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_asm_cell_opens_the_listing_it_names_and_a_name_no_listing_has_fails_the_cell()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var named = await cells.RunAsync("""
            public class TwoLoops
            {
                private readonly int[] _data = Enumerable.Range(0, 64).ToArray();
                [Benchmark] public int Sum() { var s = 0; foreach (var x in _data) s += x; return s; }
                [Benchmark] public int SumOfSquares() { var s = 0; for (var i = 0; i < _data.Length; i++) s += _data[i] * _data[i]; return s; }
            }
            await Lab.AsmAsync<TwoLoops>(open: "Sum")
            """);
        var wrong = await cells.RunAsync("await Lab.AsmAsync<TwoLoops>(open: \"Sums\")");

        Assert.True(named.Outcome.Succeeded, named.ToString());
        var html = named.Result!.Data["text/html"];
        Assert.Equal(["TwoLoops:Sum():int:this"], html.Split("<details open><summary><code>").Skip(1).Select(s => s[..s.IndexOf('<', StringComparison.Ordinal)]));
        Assert.False(wrong.Outcome.Succeeded);
        Assert.StartsWith("There is no listing of TwoLoops.Sums to open: the listings are of ", wrong.Error!.Message, StringComparison.Ordinal);
        Assert.Contains("TwoLoops.SumOfSquares", wrong.Error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MemoryDiagnoser_in_a_cell_gets_the_fix_to_drop_it()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync("[MemoryDiagnoser] public class WithDiagnoser { [Benchmark] public int One() => 1; }");

        Assert.False(cell.Outcome.Succeeded);
        Assert.Contains("fix: Remove [MemoryDiagnoser]", string.Join("\n", cell.Error!.Details), StringComparison.Ordinal);
    }

    [Fact]
    public void Is_complete_tells_an_open_block_from_a_finished_one()
    {
        Assert.True(NotebookSession.IsComplete("var x = 1;"));
        Assert.False(NotebookSession.IsComplete("if (true) {"));
    }

    [Fact]
    public async Task Completion_offers_members_after_a_dot_and_names_in_scope()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync("var numbers = new List<int>();");

        var members = await cells.Session.CompleteAsync("numbers.Cou", 11);
        var names = await cells.Session.CompleteAsync("numb", 4);

        Assert.Contains("Count", members.Matches);
        Assert.Equal(8, members.Start);
        Assert.Contains("numbers", names.Matches);
    }
}
