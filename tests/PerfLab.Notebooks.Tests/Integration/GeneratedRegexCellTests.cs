using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>[GeneratedRegex] in cells of a real session: the types become a library the .NET 10 generator wrote, the statements a submission.</summary>
public class GeneratedRegexCellTests
{
    private static string Setup => SetupCell.For(Path.Combine(Repo.Notebooks, "any.ipynb"), Repo.Root);

    private static string Patterns(string pattern) => $$"""
        using System.Text.RegularExpressions;
        public static partial class Patterns
        {
            [GeneratedRegex(@"{{pattern}}")]
            public static partial Regex Words();
        }
        Patterns.Words().Count("a b c")
        """;

    [Fact]
    public async Task A_cell_declares_a_generated_regex_and_uses_it_and_a_later_cell_uses_it_too()
    {
        using var cells = new CellRecorder();
        var declared = await cells.RunAsync(Patterns(@"\w+"));
        var later = await cells.RunAsync("Patterns.Words().Count(\"one two three four\")");
        var generated = await cells.RunAsync("Patterns.Words().GetType().FullName");

        Assert.True(declared.Outcome.Succeeded, declared.ToString());
        Assert.Equal("3", declared.ResultText);
        Assert.Equal("4", later.ResultText);
        Assert.StartsWith("System.Text.RegularExpressions.Generated.", generated.ResultText, StringComparison.Ordinal); // the generator's class, not Regex
    }

    [Fact]
    public async Task An_invalid_pattern_is_an_error_at_the_cells_line_with_the_parsers_message_and_the_session_goes_on()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync("var kept = 7;");
        var broken = await cells.RunAsync(Patterns("(unclosed"));
        var after = await cells.RunAsync("kept");

        Assert.False(broken.Outcome.Succeeded);
        Assert.Equal("CompilationError", broken.Error!.Name);
        Assert.Equal("The cell did not compile: 1 error.", broken.Error.Message);
        Assert.Matches(@"^\(4,5\): error SYSLIB1042: .*Not enough \)'s", broken.Error.Details[0]);
        Assert.Contains("[GeneratedRegex(@\"(unclosed\")]", broken.Error.Details[1], StringComparison.Ordinal);
        Assert.Equal("7", after.ResultText);
    }

    [Fact]
    public async Task Running_the_cell_again_with_another_pattern_uses_the_new_one_in_that_cell_and_later_ones()
    {
        using var cells = new CellRecorder();
        var words = await cells.RunAsync(Patterns(@"\w+"));
        var letters = await cells.RunAsync(Patterns(@"\w"));
        var later = await cells.RunAsync("Patterns.Words().Count(\"ab cd\")");

        Assert.Equal("3", words.ResultText);
        Assert.True(letters.Outcome.Succeeded, letters.ToString());
        Assert.Equal("3", letters.ResultText);
        Assert.Equal("4", later.ResultText);
    }

    [Fact]
    public async Task Statements_of_the_cell_compile_at_their_own_lines_and_a_private_member_gets_the_fix()
    {
        using var cells = new CellRecorder();
        var cell = await cells.RunAsync("""
            using System.Text.RegularExpressions;
            public static partial class Hidden
            {
                [GeneratedRegex("a+")] private static partial Regex As();
            }
            var n = 1;
            Hidden.As().Count("aa")
            """);

        Assert.False(cell.Outcome.Succeeded);
        Assert.Matches(@"^\(7,8\): error CS0117: 'Hidden' does not contain a definition for 'As'", cell.Error!.Details[0]);
        Assert.Contains("Hidden.As().Count(\"aa\")", cell.Error.Details[1], StringComparison.Ordinal);
        Assert.Contains("fix: The types of a cell that uses [GeneratedRegex] are compiled as a library", string.Join("\n", cell.Error.Details), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Types_of_such_a_cell_see_earlier_cells_usings_but_not_their_variables()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync("using System.Text.RegularExpressions;\nvar limit = 2;");
        var cell = """
            public static partial class Counter
            {
                [GeneratedRegex("b+")] public static partial Regex Bs();
                public static int Capped(string s) => Math.Min(Bs().Count(s), LIMIT);
            }
            Counter.Capped("b b b")
            """;
        var withVariable = await cells.RunAsync(cell.Replace("LIMIT", "limit", StringComparison.Ordinal));
        var withConstant = await cells.RunAsync(cell.Replace("LIMIT", "2", StringComparison.Ordinal));

        Assert.False(withVariable.Outcome.Succeeded);
        Assert.Matches(@"^\(4,67\): error CS0103: The name 'limit' does not exist", withVariable.Error!.Details[0]);
        Assert.Equal("2", withConstant.ResultText);
    }

    [Fact]
    public async Task A_later_cells_types_use_an_earlier_cells_and_a_namespace_is_allowed()
    {
        using var cells = new CellRecorder();
        var first = await cells.RunAsync(Patterns(@"\w+"));
        var second = await cells.RunAsync("""
            namespace Text
            {
                public static partial class Tokens
                {
                    [System.Text.RegularExpressions.GeneratedRegex(@"\d+")] public static partial System.Text.RegularExpressions.Regex Numbers();
                    public static int WordsAndNumbers(string s) => Patterns.Words().Count(s) + Numbers().Count(s);
                }
            }
            Text.Tokens.WordsAndNumbers("a 1 b 22")
            """);
        var again = await cells.RunAsync(Patterns(@"[a-z]+"));
        var both = await cells.RunAsync("Text.Tokens.WordsAndNumbers(\"a 1\") + Patterns.Words().Count(\"a 1\")");

        Assert.Equal("3", first.ResultText);
        Assert.True(second.Outcome.Succeeded, second.ToString());
        Assert.Equal("6", second.ResultText);
        Assert.Equal("3", again.ResultText);
        // Tokens keeps the Patterns it was compiled with (\w+: 2 + 1); later cells see the new one ([a-z]+: 1).
        Assert.Equal("4", both.ResultText);
    }

    [Fact]
    public async Task A_type_an_earlier_cell_declared_as_script_code_is_refused_since_it_would_hide_the_new_one()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync("public static class Patterns { public static int Words() => 1; }");
        var cell = await cells.RunAsync(Patterns(@"\w+"));

        Assert.False(cell.Outcome.Succeeded);
        Assert.Equal("An earlier cell declared Patterns as script code, which would hide this cell's Patterns from the cell's statements and later cells.", cell.Error!.Message);
    }

    [Fact]
    public async Task A_generated_regex_benchmark_cell_runs_with_lab_in_smoke_mode()
    {
        using var cells = new CellRecorder();
        await cells.RunAsync(Setup);
        var cell = await cells.RunAsync($$"""
            // {{Guid.NewGuid():N}}
            using System.Text.RegularExpressions;
            public partial class Engines
            {
                [GeneratedRegex(@"\b\w+\b")] private static partial Regex Words();
                private static readonly string s_text = "the quick brown fox";
                [GlobalSetup] public void Check() { if (Words().Count(s_text) != 4) throw new InvalidOperationException("wrong count"); }
                [Benchmark] public int Generated() => Words().Count(s_text);
            }
            var run = await Lab.RunAsync<Engines>(runtimes: ["net10.0"], mode: "smoke");
            run
            """);

        Assert.True(cell.Outcome.Succeeded, cell.ToString());
        Assert.Contains("Generated", cell.Result!.Data["text/html"], StringComparison.Ordinal);
        Assert.Contains("smoke", cell.ResultText, StringComparison.Ordinal);
        var failed = await cells.RunAsync("run.HasErrors");
        Assert.Equal("False", failed.ResultText);
    }
}
