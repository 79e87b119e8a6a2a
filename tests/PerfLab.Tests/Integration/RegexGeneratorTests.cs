using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using PerfLab.Benchmarks;
using PerfLab.Runtimes;

namespace PerfLab.Tests.Integration;

public sealed class RegexGeneratorTests
{
    private const string Declaration = """
        using System.Text.RegularExpressions;
        public static partial class Patterns
        {
            [GeneratedRegex(@"\w*\p{Sm}")]
            public static partial Regex WordThenMathSymbol();
        }
        """;

    private static GeneratorOutcome Generate(string moniker, string source)
    {
        var runtime = RuntimeCatalog.Find(moniker);
        var compilation = CSharpCompilation.Create(
            "patterns",
            [CSharpSyntaxTree.ParseText(source, CSharpParseOptions.Default.WithLanguageVersion(LanguageVersion.Latest))],
            runtime.ReferenceAssemblies(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        return RegexGenerator.Load(new HostLayout().RegexGeneratorPath(runtime)).Run(compilation);
    }

    [Theory]
    [InlineData("net8.0")]
    [InlineData("net9.0")]
    [InlineData("net10.0")]
    public void Each_runtimes_generator_gives_a_partial_method_a_body_that_compiles(string moniker)
    {
        var outcome = Generate(moniker, Declaration);

        Assert.Empty(outcome.Diagnostics);
        Assert.NotEmpty(outcome.Generated);
        var errors = outcome.Compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToArray();
        Assert.True(errors.Length == 0, string.Join("\n", errors.Select(e => e.ToString())));
    }

    [Fact]
    public void Dotnet10s_generator_makes_the_word_loop_atomic_where_dotnet9s_backtracks()
    {
        // N10-R01: .NET 10 proves \w and \p{Sm} disjoint, so the loop needs no backtracking.
        var nine = string.Concat(Generate("net9.0", Declaration).Generated.Select(t => t.ToString()));
        var ten = string.Concat(Generate("net10.0", Declaration).Generated.Select(t => t.ToString()));

        Assert.Contains("Match a word character greedily any number of times.", nine, StringComparison.Ordinal);
        Assert.Contains("Match a word character atomically any number of times.", ten, StringComparison.Ordinal);
    }

    [Fact]
    public void An_invalid_pattern_is_an_error_at_the_attribute_with_the_parsers_message()
    {
        var outcome = Generate("net10.0", Declaration.Replace(@"\w*\p{Sm}", "(unclosed", StringComparison.Ordinal));

        var error = Assert.Single(outcome.Diagnostics, d => d.Severity == DiagnosticSeverity.Error);
        Assert.Equal(3, error.Location.GetLineSpan().StartLinePosition.Line);
        Assert.Contains("Not enough )'s", error.GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }
}
