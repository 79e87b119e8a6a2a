namespace PerfLab.Benchmarks;

/// <summary>
/// The namespaces a benchmark's code sees without a using directive, wherever it is compiled: the one list of
/// a notebook cell's defaults (<see cref="Cell"/>) that the course kernel's scripts, the [GeneratedRegex] cells'
/// libraries of both kernels and the benchmark compiler all start from, so a class that compiles in a cell also
/// compiles when Lab sends its text to the compiler for each runtime.
/// </summary>
public static class DefaultUsings
{
    /// <summary>
    /// What every notebook cell sees: the default imports of .NET Interactive's C# kernel, which the course
    /// cannot change there, so the course kernel takes the same and a cell means the same in both.
    /// </summary>
    public static IReadOnlyList<string> Cell { get; } =
        ["System", "System.Collections", "System.Collections.Generic", "System.Linq", "System.Text", "System.Threading.Tasks"];

    /// <summary>
    /// What a benchmark's source sees in the benchmark compiler: every namespace of <see cref="Cell"/> (a cell's
    /// class sent by Lab), then those the implicit usings of `dotnet new console` add (a file given to
    /// `perflab bench` compiles as in a console project), then BenchmarkDotNet's attributes (which a notebook's
    /// setup cell brings into scope with a using).
    /// </summary>
    public static IReadOnlyList<string> Benchmark { get; } =
        [.. Cell.Union(["System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http", "System.Threading", "System.Threading.Tasks"]), "BenchmarkDotNet.Attributes"];

    /// <summary>A namespace as C#: <c>global using global::System;</c>.</summary>
    /// <param name="name">The namespace.</param>
    public static string AsGlobalUsing(string name) => $"global using global::{name};";

    /// <summary>Each namespace as a line of <see cref="AsGlobalUsing"/>, for a compilation's extra file.</summary>
    /// <param name="namespaces">The namespaces.</param>
    public static string AsGlobalUsings(IEnumerable<string> namespaces) =>
        string.Concat(namespaces.Select(n => AsGlobalUsing(n) + "\n"));
}
