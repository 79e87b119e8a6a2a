using System.Globalization;
using Microsoft.CodeAnalysis;
using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Execution;

/// <summary>Compiler errors as one cell output: a summary, then each error at its (line,col) with the line itself.</summary>
internal static class CompileErrors
{
    /// <summary>One error output for <paramref name="errors"/> of the cell <paramref name="code"/>.</summary>
    /// <param name="code">The cell's text.</param>
    /// <param name="errors">The errors, the cell's at its own lines.</param>
    /// <param name="libraryTypes">Types of [GeneratedRegex] cells, compiled as libraries: a missing or inaccessible member of one gets that fix.</param>
    public static ErrorOutput Describe(string code, IReadOnlyList<Diagnostic> errors, IReadOnlySet<string>? libraryTypes = null)
    {
        var lines = code.Split('\n');
        var details = new List<string>();
        string? fix = null;
        foreach (var error in errors.Take(20))
        {
            var span = error.Location.GetLineSpan();
            var line = span.StartLinePosition.Line;
            var column = span.StartLinePosition.Character;
            // The cell's own trees have no path; another file (generated code, earlier cells' usings) is named.
            var file = span.Path is { Length: > 0 } path ? path : "";
            details.Add(string.Create(CultureInfo.InvariantCulture, $"{file}({line + 1},{column + 1}): error {error.Id}: {error.GetMessage(CultureInfo.InvariantCulture)}"));
            if (error.Location.IsInSource && file.Length == 0 && line < lines.Length)
            {
                var text = lines[line].TrimEnd('\r');
                details.Add($"    {line + 1,3} | {text}");
                details.Add($"        | {new string(' ', Math.Min(column, text.Length))}^");
            }

            fix ??= FixFor(error, libraryTypes);
        }

        if (errors.Count > 20)
        {
            details.Add($"... and {errors.Count - 20} more errors.");
        }

        if (fix is not null)
        {
            details.Add("fix: " + fix);
        }

        var summary = errors.Count == 1 ? "The cell did not compile: 1 error." : $"The cell did not compile: {errors.Count} errors.";
        return new ErrorOutput("CompilationError", summary, details);
    }

    // The errors a reader of the course meets first get the one-line fix.
    private static string? FixFor(Diagnostic error, IReadOnlySet<string>? libraryTypes)
    {
        var message = error.GetMessage(CultureInfo.InvariantCulture);

        // Script code sees a library's public members only: a private one is missing (CS0117), an internal type unknown.
        if (error.Id is "CS0103" or "CS0117" or "CS0122" or "CS0246"
            && libraryTypes?.Any(t => message.Contains($"'{t}'", StringComparison.Ordinal) || message.Contains($"'{t}.", StringComparison.Ordinal)) == true)
        {
            return "The types of a cell that uses [GeneratedRegex] are compiled as a library of their own: make the types and members that script code uses public.";
        }

        if (error.Id == "CS0006" && message.Contains("nuget:", StringComparison.OrdinalIgnoreCase))
        {
            return "The course does not load NuGet packages from cells: its helpers come from the setup cell (first code cell).";
        }

        if (error.Id == "CS0006" && message.Contains("PerfLab", StringComparison.Ordinal) || error.Id == "CS0006" && message.Contains("BenchmarkDotNet", StringComparison.Ordinal))
        {
            return "The course helpers are not built. From the repository root run: dotnet build helpers/PerfLab.Notebooks, then run the setup cell again.";
        }

        // BenchmarkDotNet's config attributes live in BenchmarkDotNet.dll, which the kernel does not load.
        if (error.Id == "CS0246" && message.Contains("'MemoryDiagnoser", StringComparison.Ordinal))
        {
            return "Remove [MemoryDiagnoser]: PerfLab always measures allocations (the Allocated column).";
        }

        if (error.Id is "CS0103" or "CS0246" && (message.Contains("'Lab'", StringComparison.Ordinal) || message.Contains("'Benchmark", StringComparison.Ordinal)))
        {
            return "Run the setup cell (the first code cell) first.";
        }

        return null;
    }
}
