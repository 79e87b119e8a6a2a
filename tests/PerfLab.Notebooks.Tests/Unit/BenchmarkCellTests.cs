using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>A cell split into its declarations (the regular file) and its statements (the script), positions kept.</summary>
public class BenchmarkCellTests
{
    private const string Cell = """
        #r "extra.dll"
        using System.Text.RegularExpressions;
        var before = 1;
        public partial class Engines
        {
            [GeneratedRegex("a+")] private static partial Regex As();
        }
        namespace Shapes { public class Square { } }
        await Lab.RunAsync<Engines>()
        """;

    [Fact]
    public void Each_part_keeps_the_cells_lines_and_columns_and_blanks_the_other()
    {
        var parts = BenchmarkCell.Split(Cell);
        var cell = Cell.Split('\n');
        var declarations = parts.Declarations.Split('\n');
        var statements = parts.Statements.Split('\n');

        Assert.Equal(Cell.Length, parts.Declarations.Length);
        Assert.Equal(Cell.Length, parts.Statements.Length);
        Assert.Equal(["", cell[1], "", cell[3], cell[4], cell[5], cell[6], cell[7], ""], declarations.Select(l => l.TrimEnd()));
        Assert.Equal([cell[0], cell[1], cell[2], "", "", "", "", "", cell[8]], statements.Select(l => l.TrimEnd()));
    }

    [Fact]
    public void It_names_the_declared_types_and_sees_generated_regex()
    {
        var parts = BenchmarkCell.Split(Cell);

        Assert.Equal(["Engines", "Shapes.Square"], parts.TypeNames);
        Assert.True(parts.UsesGeneratedRegex);
        Assert.True(BenchmarkCell.Split("class A { [System.Text.RegularExpressions.GeneratedRegexAttribute(\"x\")] static partial Regex X(); }").UsesGeneratedRegex);
        Assert.False(BenchmarkCell.Split("// GeneratedRegex\nclass A { [Obsolete] void M() { } }").UsesGeneratedRegex);
    }

    [Fact]
    public void A_benchmark_class_is_extracted_as_the_declarations_part()
    {
        Assert.Equal(BenchmarkCell.Split(Cell).Declarations, BenchmarkCell.TryExtract(Cell, "Engines"));
        Assert.Null(BenchmarkCell.TryExtract(Cell, "Square")); // only top-level classes are benchmark classes
    }
}
