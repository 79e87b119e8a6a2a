using System.Reflection;
using PerfLab.Contract;
using PerfLab.Disassembly;
using PerfLab.GeneratedRegexSource;
using PerfLab.Results;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>
/// .NET Interactive is not available here (deprecated, not in the registry), so this test follows its
/// convention step by step with reflection, as it does: attribute found by name, source created, formatters
/// matched by MimeType, Format(object, TextWriter) called.
/// </summary>
public class NotebookFormatterTests
{
    private static object HtmlFormatter(Type displayed)
    {
        var attribute = displayed.GetCustomAttributes(inherit: false).Single(a => a.GetType().Name == "TypeFormatterSourceAttribute");
        var sourceType = (Type)attribute.GetType().GetProperty("FormatterSourceType")!.GetValue(attribute)!;
        Assert.NotNull(sourceType.GetConstructor(Type.EmptyTypes));
        var formatters = (IEnumerable<object>)sourceType.GetMethod("CreateTypeFormatters")!.Invoke(Activator.CreateInstance(sourceType), null)!;
        return formatters.Single(f => (string)f.GetType().GetProperty("MimeType")!.GetValue(f)! == "text/html");
    }

    private static (bool Handled, string Text) Format(object formatter, object value)
    {
        var format = formatter.GetType().GetMethods(BindingFlags.Public | BindingFlags.Instance).Single(m => m.Name == "Format");
        var writer = new StringWriter();
        var handled = (bool)format.Invoke(formatter, [value, writer])!;
        return (handled, writer.ToString());
    }

    [Fact]
    public void A_benchmark_run_displays_as_its_table_and_charts()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net8.0", "8.0.31", Fake.Case("Sum", 10, 0)), Fake.Outcome("net10.0", "10.0.12", Fake.Case("Sum", 5, 0)));

        var (handled, html) = Format(HtmlFormatter(typeof(BenchmarkRun)), run);

        Assert.True(handled);
        Assert.Contains("<table>", html, StringComparison.Ordinal);
        Assert.Contains("Plotly.newPlot(", html, StringComparison.Ordinal);
    }

    [Fact]
    public void An_asm_report_displays_as_its_side_by_side_view()
    {
        var listing = AsmListing.ParseAll(AsmListingTests.Net8Style)[0];
        var report = new AsmReport("Work", "steady state", [new RuntimeAsm("net8.0", "8.0.31", [listing], [])]);

        var (handled, html) = Format(HtmlFormatter(typeof(AsmReport)), report);

        Assert.True(handled);
        Assert.Contains("class=\"perflab-asm\"", html, StringComparison.Ordinal);
    }

    [Fact]
    public void A_regex_source_report_displays_as_its_side_by_side_view()
    {
        var file = GeneratedRegexFiles.WordThenMathSymbol;
        var report = new RegexSourceReport(@"\w*\p{Sm}", System.Text.RegularExpressions.RegexOptions.None, [new RuntimeRegexSource("net10.0", "10.0.14", file, RegexSourceParts.Find(file), [])]);

        var (handled, html) = Format(HtmlFormatter(typeof(RegexSourceReport)), report);

        Assert.True(handled);
        Assert.Contains("class=\"perflab-asm perflab-regex\"", html, StringComparison.Ordinal);
        Assert.Contains("○ Match a word character atomically any number of times.", html, StringComparison.Ordinal);
    }

    [Fact]
    public void A_break_even_displays_as_its_verdicts_and_chart()
    {
        var run = Fake.Run(BenchmarkMode.Quick, Fake.Outcome("net9.0", "9.0.20", Fake.Case("BuildPlain", 1000, 0), Fake.Case("ReadPlain", 500, 0), Fake.Case("BuildFrozen", 5000, 0), Fake.Case("ReadFrozen", 300, 0)));
        var breakEven = BreakEven.From(run, new BreakEvenSide("Dictionary", "BuildPlain", "ReadPlain"), new BreakEvenSide("Frozen", "BuildFrozen", "ReadFrozen"), readsPerCall: 100);

        var (handled, html) = Format(HtmlFormatter(typeof(BreakEven)), breakEven);

        Assert.True(handled);
        Assert.Contains("pays off from 2,000 reads per build", html, StringComparison.Ordinal);
        Assert.Contains("Plotly.newPlot(", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Other_values_are_left_to_other_formatters()
    {
        Assert.False(Format(HtmlFormatter(typeof(BenchmarkRun)), "a string").Handled);
    }
}
