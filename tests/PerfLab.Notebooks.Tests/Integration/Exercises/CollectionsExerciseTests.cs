using PerfLab.Contract;
using static PerfLab.Notebooks.Tests.Support.ExerciseAnswers;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>The collections track's exercises (notebooks/collections): each check on the answers a reader is likely to write.</summary>
public sealed class CollectionsExerciseTests
{
    private static readonly Exercise ScoreTotal = new(
        "collections/01-enumeration.ipynb", "class ScoreTotal", "\nvar exercise", "collections-01-enumeration.exercise.cs",
        "Enumeration.CheckAllocationFree(typeof(ScoreTotal), exercise)");

    private static readonly Exercise FirstLarge = new(
        "collections/02-linq.ipynb", "class FirstLarge", "\nvar exercise", "collections-02-linq.exercise.cs",
        "Linq.CheckFirstWithoutIterator(typeof(FirstLarge), exercise)");

    private static readonly Exercise OrderTotal = new(
        "collections/03-dictionaries-and-frozen.ipynb", "class OrderTotal", "\nvar exercise", "collections-03-dictionaries-and-frozen.exercise.cs",
        "Dictionaries.CheckOrderWithoutStrings(typeof(OrderTotal), exercise)");

    private static readonly Exercise SetBits = new(
        "collections/04-specialized.ipynb", "class SetBits", "\nvar exercise", "collections-04-specialized.exercise.cs",
        "Bits.CheckCountOnes(typeof(SetBits), exercise)");

    /// <summary>
    /// collections/01's exercise in smoke mode on .NET 8, 9 and 10: a struct enumerator allocates nothing
    /// even in a cold call, so the bytes decide here too; a copy or a wrong total fails.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", null, null, "✗ Not yet: AddUp still enumerates through the IEnumerable<int> interface")]
    [InlineData("the kept solution", "", "", "✓ Total adds up to 500500 and allocates nothing on net8.0, net9.0, net10.0")]
    [InlineData("copying the list to an array first", "foreach (int value in values)", "foreach (int value in values.ToArray())", "✗ Not yet: Total still allocates")]
    [InlineData("counting instead of adding", "total += value;", "total++;", "✗ Not yet: Total returns 1000, but the scores add up to 500500")]
    public async Task Allocation_free_check_passes_only_a_loop_that_allocates_nothing_and_adds_up(string answer, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(ScoreTotal, answer, AnswerStart.Solution, find, replaceWith, expectedStart);
    }

    /// <summary>
    /// collections/02's exercise: the answers and the LINQ calls are checked in every mode, the bytes in quick
    /// mode on .NET 9 and 10. Where(...).First(), an off-by-one condition, FirstOrDefault's silent 0 and a
    /// lambda capturing a local (an allocation per call) are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "Smoke", null, null, "✗ Not yet: FirstAbove still calls Enumerable.Where")]
    [InlineData("the kept solution", "Smoke", "", "", "✓ the answers are right and no iterator is built (smoke mode")]
    [InlineData("an off-by-one condition", "Smoke", "v > 500", "v >= 500", "✗ Not yet: FirstAbove([0, 1, ..., 999]) returns 500")]
    [InlineData("FirstOrDefault", "Smoke", "values.First(", "values.FirstOrDefault(", "✗ Not yet: FirstAbove([5, 500, -1]) returns 0, but no value is above 500")]
    [InlineData("the kept solution, measured", "Quick", "", "", "✓ the answers are right and nothing is allocated per call on net9.0 and net10.0")]
    [InlineData("a lambda capturing a local", "Quick", "=> values.First(v => v > 500);", LambdaCapturingALocal, "✗ Not yet: Find still allocates ")]
    public async Task First_match_check_passes_only_right_answers_without_an_iterator_or_allocation(string answer, string mode, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(FirstLarge, answer, AnswerStart.Solution, find, replaceWith, expectedStart, Enum.Parse<BenchmarkMode>(mode));
    }

    /// <summary>
    /// collections/03's exercise: totals and the IL are checked in every mode, the bytes in quick mode on .NET 9
    /// and 10. Split and Substring, a span turned back into a string, a lost quantity, and a string hidden in a
    /// local function (only the bytes can see it) are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "exercise", "Smoke", null, null, "✗ Not yet: TotalOf still calls String.Split")]
    [InlineData("the kept solution", "solution", "Smoke", "", "", "✓ the totals are right and no string is created (smoke mode")]
    [InlineData("a span made a string again", "solution", "Smoke", "priceOf[item[..equals]]", "Prices[item[..equals].ToString()]", "✗ Not yet: TotalOf still calls ToString(), which returns a new string")]
    [InlineData("the quantity forgotten", "solution", "Smoke", "priceOf[item[..equals]] * int.Parse(item[(equals + 1)..])", "priceOf[item[..equals]]", "✗ Not yet: TotalOf(\"apple=3;fig=1;plum=12;kiwi=2;apple=1\") returns 265; the order costs 660 cents.")]
    [InlineData("the kept solution, measured", "solution", "Quick", "", "", "✓ the totals are right and nothing is allocated per call on net9.0 and net10.0")]
    [InlineData("a string in a local function", "solution", "Quick", "int.Parse(item[(equals + 1)..]);", QuantityThroughAString, "✗ Not yet: Total still allocates ")]
    public async Task Order_total_check_passes_only_right_totals_without_strings_or_allocation(string answer, string start, string mode, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(OrderTotal, answer, from, find, replaceWith, expectedStart, Enum.Parse<BenchmarkMode>(mode));
    }

    /// <summary>
    /// collections/04's exercise: counts and the IL are checked in every mode, the bytes in quick mode on .NET 10.
    /// Reading bit by bit, forgetting the bytes after the last whole word, counting the last byte's bits past
    /// Length (a LeftShift leaves them) and copying into an array are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "exercise", "Smoke", null, null, "✗ Not yet: CountOnes still reads single bits (BitArray.get_Item)")]
    [InlineData("the kept solution", "solution", "Smoke", "", "", "✓ the counts are right and no single bit is read (smoke mode")]
    [InlineData("whole words only", "solution", "Smoke", "ones += BitOperations.PopCount(rest);", "ones += 0;", "✗ Not yet: CountOnes returns ")]
    [InlineData("the last byte counted whole", "solution", "Smoke", "storage[fullBytes] & ((1 << tailBits) - 1)", "storage[fullBytes]", "✗ Not yet: CountOnes returns 13 for 13 set bits shifted left by 3; 10 bits are set. The last byte can hold bits past Length")]
    [InlineData("a copy into an int array", "solution", "Smoke", "ReadOnlySpan<byte> storage = CollectionsMarshal.AsBytes(bits);", CopyIntoIntArray, "✗ Not yet: CountOnes creates an array on every call")]
    [InlineData("the kept solution, measured", "solution", "Quick", "", "", "✓ the counts are right, no single bit is read and nothing is allocated per call on net10.0.")]
    public async Task Set_bits_check_passes_only_right_counts_read_from_the_storage_without_allocation(string answer, string start, string mode, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(SetBits, answer, from, find, replaceWith, expectedStart, Enum.Parse<BenchmarkMode>(mode));
    }

    // collections/02: a block body whose lambda captures a local, a closure allocated per call.
    private const string LambdaCapturingALocal =
        "\n" +
        "    {\n" +
        "        int limit = 500;\n" +
        "        return values.First(v => v > limit);\n" +
        "    }";

    // collections/03: the quantity parsed through a string, hidden in a local function.
    private const string QuantityThroughAString =
        "Quantity(item[(equals + 1)..]);\n" +
        "            static int Quantity(ReadOnlySpan<char> digits) => int.Parse(digits.ToString());";

    // collections/04: the bits copied into an int array, whose bytes are then read.
    private const string CopyIntoIntArray =
        "int[] copy = new int[(bits.Length + 31) / 32];\n" +
        "        bits.CopyTo(copy, 0);\n" +
        "        ReadOnlySpan<byte> storage = MemoryMarshal.AsBytes(copy.AsSpan());";
}
