using PerfLab.Benchmarks;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// A benchmark class that uses a type of each namespace in <see cref="DefaultUsings.Cell"/> without a using, for
/// the tests that run it in each kernel and through Lab.RunAsync.
/// </summary>
public static class DefaultNamespaceUses
{
    // A namespace added to the list needs an expression here: Covers_the_list fails until it has one.
    private static readonly Dictionary<string, string> Uses = new()
    {
        ["System"] = "Math.Max(1, 2)",
        ["System.Collections"] = "new BitArray(8).Length",
        ["System.Collections.Generic"] = "new List<int> { 1 }.Count",
        ["System.Linq"] = "Enumerable.Range(0, 3).Count()",
        ["System.Text"] = "new StringBuilder(\"ab\").Length",
        ["System.Threading.Tasks"] = "(Task.CompletedTask.IsCompleted ? 1 : 0)",
    };

    /// <summary>What <see cref="Class"/>'s Use() returns.</summary>
    public const int Sum = 17;

    /// <summary>Whether every namespace of the list has its expression, and nothing else does.</summary>
    public static bool CoversTheList => DefaultUsings.Cell.Order().SequenceEqual(Uses.Keys.Order());

    /// <summary>A class named <paramref name="name"/> whose [Benchmark] Use() adds the expressions up.</summary>
    public static string Class(string name) => $$"""
        public class {{name}}
        {
            [Benchmark] public int Use() => {{string.Join(" + ", Uses.Values)}};
        }
        """;
}
