using System.Text.Json.Nodes;
using PerfLab.Notebooks.Documents;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Unit;

public class NotebookLintTests
{
    private const string File = "notebooks/runtime/01-demo.ipynb";

    private static string Problems(IReadOnlyList<string> problems) =>
        problems.Count == 0 ? "(no problem reported)" : string.Join("\n---\n", problems);

    private static string Single(IReadOnlyList<string> problems)
    {
        Assert.True(problems.Count == 1, "expected exactly one problem, got:\n" + Problems(problems));
        return problems[0];
    }

    [Fact]
    public void A_clean_notebook_has_no_problem()
    {
        var notebook = Clean();

        var problems = NotebookLint.Check(notebook, RepoRoot);

        Assert.True(problems.Count == 0, Problems(problems));
    }

    [Fact]
    public void A_setup_cell_saved_with_Windows_line_endings_is_still_the_setup_cell()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText.Replace("\n", "\r\n", StringComparison.Ordinal)));

        var problems = NotebookLint.Check(notebook, RepoRoot);

        Assert.True(problems.Count == 0, Problems(problems));
    }

    [Fact]
    public void A_relative_link_to_a_missing_notebook_is_reported_and_web_links_are_not()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo\nSee [the posts](https://devblogs.microsoft.com/dotnet/) and [below](#summary).\n\nNext: [Loops](02-loops.ipynb)"), Code(SetupText));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}, cell 1: links to 02-loops.ipynb, which does not exist", StringComparison.Ordinal), problem);
    }

    [Fact]
    public void A_cell_that_stores_outputs_is_reported()
    {
        var outputs = new JsonArray(new JsonObject { ["output_type"] = "stream", ["name"] = "stdout", ["text"] = "2" });
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("Console.Write(2);", outputs));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}, cell 3: stores outputs", StringComparison.Ordinal), problem);
    }

    [Fact]
    public void A_cell_that_stores_an_execution_count_is_reported()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("var x = 2;", executionCount: 4));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}, cell 3: stores an execution count (4)", StringComparison.Ordinal), problem);
    }

    [Theory]
    [InlineData("#!time")]
    [InlineData("#!csharp")]
    [InlineData("%time")]
    [InlineData("%%timeit")]
    public void A_magic_command_is_reported(string magic)
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code(magic + "\nvar x = 2;"));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}, cell 3: `{magic}` is a magic command", StringComparison.Ordinal), problem);
    }

    [Fact]
    public void The_modulo_operator_starting_a_continuation_line_is_not_a_magic()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("var x = 7\n    % 2;"));

        var problems = NotebookLint.Check(notebook, RepoRoot);

        Assert.True(problems.Count == 0, Problems(problems));
    }

    [Fact]
    public void A_nuget_reference_is_reported()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("#r \"nuget: BenchmarkDotNet, 0.15.0\""));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}, cell 3: `#r \"nuget: BenchmarkDotNet, 0.15.0\"` loads a NuGet package", StringComparison.Ordinal), problem);
    }

    [Fact]
    public void A_package_source_directive_is_reported()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("#i \"nuget: https://example.org/feed\""));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}, cell 3: `#i \"nuget: https://example.org/feed\"` adds a package source", StringComparison.Ordinal), problem);
    }

    [Fact]
    public void Region_and_if_directives_are_not_mistaken_for_r_and_i()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code("#region demo\n#if NET10_0_OR_GREATER\nvar x = 1;\n#endif\n#endregion"));

        var problems = NotebookLint.Check(notebook, RepoRoot);

        Assert.True(problems.Count == 0, Problems(problems));
    }

    [Fact]
    public void A_first_code_cell_that_differs_from_the_setup_cell_says_which_line_and_what_is_expected()
    {
        var wrong = SetupText.Replace("../../helpers", "../helpers", StringComparison.Ordinal);
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(wrong));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}, cell 2: the first code cell is not the setup cell (line 2 is `#r \"../helpers/", StringComparison.Ordinal), problem);
        Assert.True(problem.EndsWith(SetupText, StringComparison.Ordinal), "the message should end with the expected text:\n" + problem);
    }

    [Fact]
    public void A_setup_cell_with_an_extra_line_is_reported()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText + "\nvar x = 1;"));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.Contains("(line 9 is extra: `var x = 1;`)", StringComparison.Ordinal), problem);
    }

    [Fact]
    public void A_notebook_without_code_is_told_to_start_with_the_setup_cell()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}: has no code cell", StringComparison.Ordinal), problem);
        Assert.True(problem.EndsWith(SetupText, StringComparison.Ordinal), problem);
    }

    [Fact]
    public void A_second_setup_cell_is_reported_as_a_load_outside_the_setup_cell()
    {
        var notebook = Notebook(Metadata(), Markdown("# Demo"), Code(SetupText), Code(SetupText));

        var problems = NotebookLint.Check(notebook, RepoRoot);

        // One problem per #r line of the second copy: BenchmarkDotNet's attributes, Plotly.NET's C# API and the helpers.
        Assert.True(problems.Count == 4, string.Join("\n", problems));
        Assert.True(problems[2].StartsWith($"{File}, cell 3: `#r \"../../helpers/PerfLab.Notebooks/bin/lab/PerfLab.Notebooks.dll\"` loads an assembly outside the setup cell", StringComparison.Ordinal), problems[2]);
    }

    [Fact]
    public void A_missing_kernelspec_name_is_reported()
    {
        var metadata = Metadata();
        metadata.Remove("kernelspec");
        var notebook = Notebook(metadata, Markdown("# Demo"), Code(SetupText));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.Equal($"{File}: metadata.kernelspec.name is missing, expected \"perflab-csharp\" (the course's kernel).", problem);
    }

    [Fact]
    public void Another_kernel_is_reported_with_its_name()
    {
        var metadata = Metadata();
        metadata["kernelspec"]!["name"] = ".net-csharp";
        var notebook = Notebook(metadata, Markdown("# Demo"), Code(SetupText));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}: metadata.kernelspec.name is \".net-csharp\", expected \"perflab-csharp\"", StringComparison.Ordinal), problem);
    }

    [Fact]
    public void A_language_version_other_than_the_one_cells_are_parsed_as_is_reported()
    {
        var metadata = Metadata();
        metadata["language_info"]!["version"] = "13.0";
        var notebook = Notebook(metadata, Markdown("# Demo"), Code(SetupText));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.Equal($"{File}: metadata.language_info.version is \"13.0\", expected \"{PerfLab.Notebooks.Execution.NotebookSession.CSharpVersion}\" (the C# version the course kernel parses cells as).", problem);
    }

    [Fact]
    public void A_missing_Polyglot_default_kernel_is_reported()
    {
        var metadata = Metadata();
        metadata.Remove("polyglot_notebook");
        var notebook = Notebook(metadata, Markdown("# Demo"), Code(SetupText));

        var problem = Single(NotebookLint.Check(notebook, RepoRoot));

        Assert.True(problem.StartsWith($"{File}: metadata.polyglot_notebook.kernelInfo.defaultKernelName is missing, expected \"csharp\"", StringComparison.Ordinal), problem);
    }

    [Fact]
    public void Every_problem_of_a_bad_notebook_is_reported_once()
    {
        var notebook = Notebook([], Code("#!time\n#r \"nuget: Foo, 1.0\"", executionCount: 1));

        var problems = NotebookLint.Check(notebook, RepoRoot);

        Assert.True(problems.Count == 6, "kernelspec, polyglot, execution count, setup text, magic, nuget:\n" + Problems(problems));
    }
}
