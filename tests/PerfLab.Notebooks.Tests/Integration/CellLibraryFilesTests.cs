using System.Reflection;
using PerfLab.Notebooks.Execution;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// The [GeneratedRegex] path for .NET Interactive, in process with the real compiler and regex generator: what
/// the adapter hands that kernel (a library file and the statements) for the cells it runs. The kernel itself
/// is driven in InteractiveKernelTests.
/// </summary>
public class CellLibraryFilesTests
{
    private static string Patterns(string pattern) => $$"""
        using System.Text.RegularExpressions;
        public static partial class Patterns
        {
            [GeneratedRegex(@"{{pattern}}", RegexOptions.None, "en-US")]
            public static partial Regex Words();
            public static string Culture => CultureInfo.InvariantCulture.Name;
        }
        Patterns.Words().Count("a b c")
        """;

    [Fact]
    public void A_cell_without_generated_regex_is_left_to_the_kernel()
    {
        using var folder = new TempFolder();
        var cells = new CellLibraryFiles(folder.Path);

        Assert.Null(cells.Split("public class Plain { public int One() => 1; }\nnew Plain().One()", CancellationToken.None));
    }

    [Fact]
    public void A_generated_regex_cell_becomes_a_library_the_generator_wrote_and_its_statements_with_lines_kept()
    {
        using var folder = new TempFolder();
        var cells = new CellLibraryFiles(folder.Path);
        cells.Ran("using System.Globalization;"); // an earlier cell's using: script code sees it in later cells, so the library must too

        var split = cells.Split(Patterns(@"\w+"), CancellationToken.None);

        Assert.NotNull(split);
        Assert.True(split.Errors is null, split.Errors?.ToString());
        Assert.Equal(8, split.Statements.Split('\n').Length);
        Assert.Equal("Patterns.Words().Count(\"a b c\")", split.Statements.Split('\n')[^1]);
        Assert.DoesNotContain("GeneratedRegex", split.Statements, StringComparison.Ordinal);
        var library = AssemblyName.GetAssemblyName(split.LibraryPath!);
        Assert.NotEmpty(library.GetPublicKeyToken() ?? []);
        Assert.Contains(Types(split.LibraryPath!), t => t.StartsWith("System.Text.RegularExpressions.Generated.", StringComparison.Ordinal));
    }

    [Fact]
    public void Running_the_cell_again_builds_the_same_name_at_a_higher_version_so_scripting_binds_to_the_new_one()
    {
        using var folder = new TempFolder();
        var cells = new CellLibraryFiles(folder.Path);
        cells.Ran("using System.Globalization;");

        var first = AssemblyName.GetAssemblyName(cells.Split(Patterns(@"\w+"), CancellationToken.None)!.LibraryPath!);
        var second = AssemblyName.GetAssemblyName(cells.Split(Patterns(@"\w"), CancellationToken.None)!.LibraryPath!);
        var other = AssemblyName.GetAssemblyName(cells.Split(Patterns(@"\d").Replace("Patterns", "Digits", StringComparison.Ordinal), CancellationToken.None)!.LibraryPath!);

        Assert.Equal(first.Name, second.Name);
        Assert.True(second.Version > first.Version, $"{second.Version} is not above {first.Version}");
        Assert.Equal(first.GetPublicKeyToken(), second.GetPublicKeyToken());
        Assert.NotEqual(first.Name, other.Name);
    }

    [Fact]
    public void An_invalid_pattern_is_the_parsers_error_at_the_cells_line_and_no_library()
    {
        using var folder = new TempFolder();
        var cells = new CellLibraryFiles(folder.Path);
        cells.Ran("using System.Globalization;");

        var split = cells.Split(Patterns("(unclosed"), CancellationToken.None)!;

        Assert.Null(split.LibraryPath);
        Assert.NotNull(split.Errors);
        Assert.Matches(@"^\(4,5\): error SYSLIB1042: .*Not enough \)'s", split.Errors.Details[0]);
        Assert.Empty(Directory.GetFiles(folder.Path, "*", SearchOption.AllDirectories));
    }

    [Fact]
    public void Without_the_earlier_cells_using_the_library_does_not_compile_and_says_where()
    {
        using var folder = new TempFolder();
        var cells = new CellLibraryFiles(folder.Path);

        var split = cells.Split(Patterns(@"\w+"), CancellationToken.None)!;

        Assert.NotNull(split.Errors);
        Assert.Contains(split.Errors.Details, d => d.StartsWith("(6,", StringComparison.Ordinal) && d.Contains("CultureInfo", StringComparison.Ordinal));
    }

    private static string[] Types(string path)
    {
        var context = new System.Runtime.Loader.AssemblyLoadContext("cell library under test", isCollectible: true);
        try
        {
            return context.LoadFromAssemblyPath(path).GetTypes().Select(t => t.FullName ?? "").ToArray();
        }
        finally
        {
            context.Unload();
        }
    }
}
