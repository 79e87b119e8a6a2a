// The course's reference suite (`perflab reference`): benchmarks with a known, real difference between
// .NET 8 and .NET 10, and one control without. bench/measure.cs also uses it to compare quick with full mode.
// Figures for comparison: "Performance Improvements in .NET 10", entries J01, J02 and J20 of
// ../shared/reference/post-net10-digest.md (measured there on .NET 9 vs 10). [BenchmarkCategory] names the
// published figure (data/published), so --html pages draw "published vs yours".
using System.Runtime.CompilerServices;

namespace Honesty;

[MemoryDiagnoser]
public class RuntimeDifferences
{
    private static readonly IEnumerable<int> Digits = new[] { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    private readonly int[] _numbers = Enumerable.Range(0, 256).ToArray();

    // J01: a lambda capturing an argument, invoked by an inlinable helper. .NET 10 keeps the delegate
    // on the stack (published: 19.53 ns -> 6.685 ns, 88 B -> 24 B on .NET 9 -> 10, dotnet/runtime#115172).
    [Benchmark]
    [BenchmarkCategory("N10-J01")]
    [Arguments(42)]
    public int CapturedLambda(int offset)
    {
        Func<int, int> shift = value => value + offset;
        return ApplyTwice(shift, offset);
    }

    private static int ApplyTwice(Func<int, int> function, int value) => function(value) + function(value);

    // J02: a small array that never leaves the method. .NET 10 allocates it on the stack
    // (published: 11.580 ns -> 3.960 ns, 48 B -> 0 B, dotnet/runtime#104906, #112250).
    [Benchmark]
    [BenchmarkCategory("N10-J02")]
    public int TemporaryArray() => CountLetters(new[] { "alpha", "beta", "gamma" });

    private static int CountLetters(string[] words)
    {
        var total = 0;
        foreach (var word in words)
        {
            total += Measure(word);
        }

        return total;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int Measure(string word) => word.Length;

    // J20: foreach over an array seen as IEnumerable<int>. .NET 10 devirtualizes the array's enumerator
    // and removes its allocation (published: 16.341 ns -> 2.059 ns, 32 B -> 0 B).
    [Benchmark]
    [BenchmarkCategory("N10-J20")]
    public int EnumerateArrayAsInterface()
    {
        var sum = 0;
        foreach (var digit in Digits)
        {
            sum += digit;
        }

        return sum;
    }

    // Control: a plain loop over an array, which no recent release changed much.
    [Benchmark]
    public int PlainLoop()
    {
        var sum = 0;
        for (var i = 0; i < _numbers.Length; i++)
        {
            sum += _numbers[i] * 3;
        }

        return sum;
    }
}
