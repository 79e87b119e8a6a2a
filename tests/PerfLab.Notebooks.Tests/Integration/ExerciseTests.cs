using PerfLab.Contract;
using static PerfLab.Notebooks.Tests.Support.ExerciseAnswers;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>Each notebook's exercise: unsolved, its check says "not yet" without failing the notebook; with the kept solution, "✓".</summary>
public class ExerciseTests
{
    private static readonly Exercise ScoreTotal = new("collections/01-enumeration.ipynb", "class ScoreTotal", "\nvar exercise", "collections-01-enumeration.exercise.cs", "Enumeration.CheckAllocationFree(typeof(ScoreTotal), exercise)");
    private static readonly Exercise Readings = new("jit/04-bounds-checks.ipynb", "class Readings", "\nvar readingsAsm", "jit-04-bounds-checks.exercise.cs", "BoundsChecks.CheckNoRangeCheck(typeof(Readings), readingsAsm)");
    private static readonly Exercise Letters = new("jit/06-folding-branches-barriers.ipynb", "class Letters", "\nvar lettersAsm", "jit-06-folding-branches-barriers.exercise.cs", "Branches.CheckOneCompare(typeof(Letters), lettersAsm)");
    private static readonly Exercise Spaces = new("jit/07-vectorization.ipynb", "class Spaces", "\nvar spacesAsm", "jit-07-vectorization.exercise.cs", "Vectorization.CheckVectorCount(typeof(Spaces), spacesAsm)");
    private static readonly Exercise FirstLarge = new("collections/02-linq.ipynb", "class FirstLarge", "\nvar exercise", "collections-02-linq.exercise.cs", "Linq.CheckFirstWithoutIterator(typeof(FirstLarge), exercise)");
    private static readonly Exercise OrderTotal = new("collections/03-dictionaries-and-frozen.ipynb", "class OrderTotal", "\nvar exercise", "collections-03-dictionaries-and-frozen.exercise.cs", "Dictionaries.CheckOrderWithoutStrings(typeof(OrderTotal), exercise)");
    private static readonly Exercise SetBits = new("collections/04-specialized.ipynb", "class SetBits", "\nvar exercise", "collections-04-specialized.exercise.cs", "Bits.CheckCountOnes(typeof(SetBits), exercise)");
    private static readonly Exercise Alarms = new("regex/03-searching.ipynb", "class Alarms", "\nvar exercise", "regex-03-searching.exercise.cs", "Searching.CheckAlarmCount(typeof(Alarms), exercise)");
    private static readonly Exercise LinePattern = new("regex/02-backtracking-and-atomicity.ipynb", "string linePattern", null, "regex-02-backtracking-and-atomicity.exercise.cs", "Backtracking.CheckLinePattern(linePattern)");
    private static readonly Exercise LogDates = new("regex/01-engines.ipynb", "class LogDates", null, "regex-01-engines.exercise.cs", "Engines.CheckGeneratedStamps(typeof(LogDates))");
    private static readonly Exercise PathLength = new("00-start-here.ipynb", "class PathLength", "\nvar exercise", "00-start-here.exercise.cs", "StartHere.CheckDeadCode(typeof(PathLength))")
    {
        // The check reads the class alone: no benchmark runs.
        Call = "",
    };

    private static readonly Exercise Segment = new("jit/02-stack-allocation.ipynb", "class Segment", "\nvar exercise", "jit-02-stack-allocation.exercise.cs", "StackAllocation.CheckNoEscape(typeof(Segment), exercise)");

    private static readonly Exercise ProfileOff = new("jit/01-tiering-and-pgo.ipynb", "var exercise", null, "jit-01-tiering-and-pgo.exercise.cs", "TieringAndPgo.CheckProfileOff(exercise)");

    private static readonly Exercise FasterLoop = new("jit/03-devirtualization.ipynb", "var fasterOnNet9", null, "jit-03-devirtualization.exercise.cs", "Devirtualization.CheckFasterLoop(wrapper, fasterOnNet9, fasterOnNet10)");

    // jit/01's benchmark cell runs its class on every runtime with the profile on.
    private const string RunWithProfile = "await Lab.RunAsync<HotPathEnumerator>()";

    // jit/03's exercise cell as the notebook has it.
    private const string Unanswered = "var fasterOnNet9 = \"?\";\nvar fasterOnNet10 = \"?\";";

    private static readonly Exercise Tally = new("jit/05-loops-and-inlining.ipynb", "class Tally", "\nawait Lab.RunAsync", "jit-05-loops-and-inlining.exercise.cs", "Inlining.CheckInlinedEverywhere(typeof(Tally), tallyAsm)")
    {
        // The notebook's next cell, without the exercise cell's measurement: the check reads only the listing.
        Call = "var tallyAsm = await Lab.AsmAsync<Tally>(\"ScaleAll\");",
    };

    // A void Measure that keeps its result in a field instead of returning it.
    private static readonly Edit[] KeepLengthInField =
    [
        new("public double Measure()", "public void Measure()"),
        new("public class PathLength\n{", "public class PathLength\n{\n    private double _last;"),
    ];

    // The field an answer keeps a point in.
    private static readonly Edit[] DeclareLastPoint = [new("public class Segment\n{", "public class Segment\n{\n    private Point? _last;")];

    // regex/02's exercise cell as the notebook has it: the exploding pattern a reader replaces.
    private const string UnsolvedLinePattern = "@\"^(\\w+\\s?)*$\"";

    [Theory]
    [InlineData("00-start-here", "class PathLength", "\nvar exercise")]
    public async Task The_kept_solution_passes_the_check_and_the_unsolved_exercise_does_not(string notebook, string exerciseMarker, string callMarker)
    {
        var exercise = new Exercise(notebook + ".ipynb", exerciseMarker, callMarker, notebook + ".exercise.cs", Check: null);

        await CheckedAnswerAsync(exercise, "the unsolved exercise", AnswerStart.Exercise, null, null, "✗", route: AnswerRoute.WholeNotebook);
        await CheckedAnswerAsync(exercise, "the kept solution", AnswerStart.Solution, "", "", "✓", route: AnswerRoute.WholeNotebook);
    }

    /// <summary>
    /// Notebook 00's check on the answers a reader is likely to write, without running a benchmark:
    /// the class compiled in a real notebook session, the check called as the check cell calls it.
    /// </summary>
    [Theory]
    [InlineData("the kept solution", null, null, "✓")]
    [InlineData("the unsolved exercise", "unsolved", null, "✗ Not yet: Measure still throws its result away")]
    [InlineData("return 0 after the loop", "return length;", "return 0;", "✗ Not yet: Measure returns 0, but the path")]
    [InlineData("returning a field's value instead of the length", "return length;", "return _xs[^1];", "✗ Not yet: Measure returns ")]
    [InlineData("storing the length in a field", "return length;", "_last = length;", "✓")]
    [InlineData("storing half the length in a field", "return length;", "_last = length / 2;", "✗ Not yet: Measure stores no field holding the path length")]
    public async Task Path_length_check_passes_only_a_benchmark_that_hands_on_the_length(string answer, string? find, string? replaceWith, string expectedStart)
    {
        // Here find is null for the kept solution and "unsolved" for the exercise cell's class as it stands.
        var edit = find switch
        {
            "unsolved" => null,
            null => "",
            _ => find,
        };
        await CheckedAnswerAsync(PathLength, answer, AnswerStart.Solution, edit, replaceWith, expectedStart, alsoEdit: replaceWith?.StartsWith("_last", StringComparison.Ordinal) == true ? KeepLengthInField : null);
    }

    /// <summary>
    /// jit/01's exercise measured for real in quick mode on .NET 10: the notebook's own class, the exercise
    /// cell with each answer, and the check. Also what the notebook claims about bytes: none with the
    /// profile, 32 (the enumerator) without it; bytes do not depend on the machine.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "[]", "✗ Not yet: the run had no environment setting")]
    [InlineData("the kept solution", "[\"DOTNET_TieredPGO=0\"]", "✓ with DOTNET_TieredPGO=0 .NET 10 allocated 32 B per call")]
    [InlineData("a setting that leaves PGO on", "[\"DOTNET_ReadyToRun=0\"]", "✗ Not yet: with DOTNET_ReadyToRun=0 .NET 10 still allocated ")]
    public async Task Profile_off_check_passes_only_when_the_enumerator_is_allocated_again(string answer, string env, string expectedStart)
    {
        // The kept solution is the exercise cell with the profile's setting in its env list.
        var exercise = ProfileOff.Cell(ProfileOff.CellMarker).Source;
        Assert.Equal(exercise.Replace("env: []", "env: [\"DOTNET_TieredPGO=0\"]", StringComparison.Ordinal).Trim(), (await ProfileOff.ReadSolutionAsync()).Trim());

        // Before the answer, the notebook's benchmark on .NET 10 alone, showing its bytes per call with the profile.
        var benchmark = ProfileOff.Cell("class HotPathEnumerator").Source;
        Assert.Contains(RunWithProfile, benchmark, StringComparison.Ordinal);
        var withProfile = benchmark.Replace(RunWithProfile, "var withProfile = await Lab.RunAsync<HotPathEnumerator>(runtimes: [\"net10.0\"]);\nwithProfile.Results.Single().AllocatedBytes", StringComparison.Ordinal);

        var result = await CheckedAnswerAsync(ProfileOff, answer, AnswerStart.Exercise, "env: []", "env: " + env, expectedStart, BenchmarkMode.Quick, before: [withProfile]);
        var bytesWithProfile = result.Before.Single();
        Assert.True(bytesWithProfile == "0", $"{answer}: .NET 10 with its profile allocated {bytesWithProfile} B per call; the notebook says none");
    }

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
    /// jit/02's exercise: structure in smoke mode (a cold call never stack-allocates), and the real bytes
    /// on .NET 9 and 10 in quick mode: the kept solution allocates nothing, a field store still escapes.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "Smoke", null, null, "✗ Not yet: Distance receives the points and is marked NoInlining")]
    [InlineData("Point turned into a struct", "Smoke", "public sealed class Point", "public readonly struct Point", "✗ Not yet: Point became a struct")]
    [InlineData("the kept solution", "Quick", "", "", "✓ the points no longer pass through a call the JIT cannot see, and Length still returns 5; .NET 9 and 10 allocated 0 B per call")]
    [InlineData("keeping a point in a field", "Quick", "return Distance(start, end);", "_last = end;\n        return Distance(start, end);", "✗ Not yet: Length still allocates 32 B per call")]
    public async Task No_escape_check_passes_only_when_net9_and_net10_keep_the_points_on_the_stack(string answer, string mode, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(Segment, answer, AnswerStart.Solution, find, replaceWith, expectedStart, Enum.Parse<BenchmarkMode>(mode), replaceWith?.Contains("_last", StringComparison.Ordinal) == true ? DeclareLastPoint : null);
    }

    /// <summary>jit/03's exercise in smoke mode, where the answer is checked against the post.</summary>
    [Theory]
    [InlineData("the unsolved exercise", "\"?\"", "\"?\"", "✗ Not yet: answer \"foreach\" or \"for\" for net9.0")]
    [InlineData("the same loop everywhere", "\"for\"", "\"for\"", "✗ Not yet: on net9.0 the faster loop in the post (smoke numbers mean nothing) was foreach")]
    [InlineData("the kept solution", null, null, "✓ foreach on .NET 9, for on .NET 10, as in the post")]
    public async Task Faster_loop_check_fails_a_wrong_reading(string answer, string? net9, string? net10, string expectedStart)
    {
        // The two answers in the exercise cell's place (null: the kept solution), after the run they read.
        var (from, find, replaceWith) = net9 is null
            ? (AnswerStart.Solution, "", "")
            : (AnswerStart.Exercise, Unanswered, $"var fasterOnNet9 = {net9};\nvar fasterOnNet10 = {net10};");
        await CheckedAnswerAsync(FasterLoop, answer, from, find, replaceWith, expectedStart, before: [FasterLoop.Cell("class ArrayWrapper").Source]);
    }

    /// <summary>
    /// jit/04's exercise on the reader's own listings (they do not depend on the mode): the kept solution
    /// has no bounds check on any runtime; the unsolved loop keeps one, and answers that remove the check
    /// by changing the result, hiding a bad count or switching safety off are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", null, null, "✗ Not yet: on net8.0 SumFirst still has 1 bounds check(s)")]
    [InlineData("the kept solution", "", "", "✓ SumFirst gives the same sums, still throws past the end, and has no bounds check in its loop on any runtime")]
    [InlineData("returning 0", "return total;", "return 0;", "✗ Not yet: SumFirst(an array of 64, 32) returns 0; the sum of its first 32 elements is 528")]
    [InlineData("looping to the array's length", "samples.AsSpan(0, count)", "samples", "✗ Not yet: SumFirst(an array of 64, 32) returns 2080")]
    [InlineData("LINQ's Take, which stops quietly at the end", "samples.AsSpan(0, count)", "samples.Take(count)", "✗ Not yet: SumFirst([1, 2, 3], 4) returns 6 instead of throwing")]
    [InlineData("Unsafe.Add", "foreach (int sample in samples.AsSpan(0, count))", "for (int i = 0; i < count; i++)\n        {\n            total += Unsafe.Add(ref System.Runtime.InteropServices.MemoryMarshal.GetArrayDataReference(samples), i);\n        }\n        foreach (int sample in Array.Empty<int>())", "✗ Not yet: SumFirst uses ")]
    public async Task No_range_check_passes_only_a_safe_loop_without_bounds_checks_that_keeps_the_answers(string answer, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(Readings, answer, AnswerStart.Solution, find, replaceWith, expectedStart);
    }

    /// <summary>
    /// jit/05's exercise on the reader's own listings: the kept solution is inlined everywhere; the
    /// unsolved helper, the same helper with AggressiveInlining (EH still blocks it before .NET 10), and
    /// rewrites that stop counting or change the result are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", null, null, "✗ Not yet: on net8.0 ScaleAll still calls Scale")]
    [InlineData("the kept solution", "", "", "✓ Scale still triples and counts, and every runtime inlines it")]
    [InlineData("AggressiveInlining on the try/finally", "    public static int Scale(int value)\n    {\n        s_calls++;\n        return value * 3;\n    }", "    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]\n    public static int Scale(int value)\n    {\n        try\n        {\n            return value * 3;\n        }\n        finally\n        {\n            s_calls++;\n        }\n    }", "✗ Not yet: on net8.0 ScaleAll still calls Scale")]
    [InlineData("dropping the counter", "        s_calls++;\n", "", "✗ Not yet: one call of Scale moved Calls by 0")]
    [InlineData("doubling instead of tripling", "return value * 3;", "return value * 2;", "✗ Not yet: Scale(14) returns 28")]
    public async Task Inlined_everywhere_check_passes_only_a_helper_every_runtime_inlines_that_still_counts(string answer, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(Tally, answer, AnswerStart.Solution, find, replaceWith, expectedStart);
    }

    /// <summary>
    /// jit/06's exercise on the reader's own listings: the kept solution compiles to one compare everywhere;
    /// the unsolved two-sided test (two compares on .NET 8 and 9), a signed subtraction and an off-by-one
    /// bound are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", null, null, "✗ Not yet: on net8.0 IsLowerLetter has 2 cmp instructions")]
    [InlineData("the kept solution", "", "", "✓ IsLowerLetter answers right for every int tried and compiles to one compare on every runtime")]
    [InlineData("a signed subtraction", "(uint)(c - 'a') <= 'z' - 'a'", "c - 'a' <= 'z' - 'a'", "✗ Not yet: IsLowerLetter(-300) returns true")]
    [InlineData("one short at the top", "(uint)(c - 'a') <= 'z' - 'a'", "(uint)(c - 'a') < 'z' - 'a'", "✗ Not yet: IsLowerLetter(122) returns false, but 'z' (122) is between")]
    public async Task One_compare_check_passes_only_a_range_test_right_for_every_int_with_one_cmp(string answer, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(Letters, answer, AnswerStart.Solution, find, replaceWith, expectedStart);
    }

    /// <summary>
    /// jit/07's exercise on the reader's own listings: the kept solution compares 16 bytes per instruction on
    /// every runtime and counts right; the unsolved byte loop, a vector loop that drops the leftover bytes,
    /// and a call to the library's Count (right in real code, not what the exercise asks) are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "exercise", null, null, "✗ Not yet: on net8.0 CountSpaces has no vector compare")]
    [InlineData("the kept solution", "solution", "", "", "✓ CountSpaces counts right for every length from 0 to 100 and compares 16 bytes per instruction on every runtime")]
    [InlineData("dropping the bytes after the last block", "solution", "for (; i < text.Length; i++)", "for (; i < 0; i++)", "✗ Not yet: CountSpaces on a text of ")]
    [InlineData("the library's Count", "exercise", "foreach (byte b in text)   // change this body", "count = text.AsSpan().Count((byte)' ');\n        foreach (byte b in Array.Empty<byte>())", "✗ Not yet: CountSpaces calls the library to count")]
    public async Task Vector_count_check_passes_only_a_right_count_with_a_vector_compare_everywhere(string answer, string start, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(Spaces, answer, from, find, replaceWith, expectedStart);
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
    [InlineData("a lambda capturing a local", "Quick", "=> values.First(v => v > 500);", "\n    {\n        int limit = 500;\n        return values.First(v => v > limit);\n    }", "✗ Not yet: Find still allocates ")]
    public async Task First_match_check_passes_only_right_answers_without_an_iterator_or_allocation(string answer, string mode, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(FirstLarge, answer, AnswerStart.Solution, find, replaceWith, expectedStart, Enum.Parse<PerfLab.Contract.BenchmarkMode>(mode));
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
    [InlineData("a string in a local function", "solution", "Quick", "int.Parse(item[(equals + 1)..]);", "Quantity(item[(equals + 1)..]);\n            static int Quantity(ReadOnlySpan<char> digits) => int.Parse(digits.ToString());", "✗ Not yet: Total still allocates ")]
    public async Task Order_total_check_passes_only_right_totals_without_strings_or_allocation(string answer, string start, string mode, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(OrderTotal, answer, from, find, replaceWith, expectedStart, Enum.Parse<PerfLab.Contract.BenchmarkMode>(mode));
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
    [InlineData("a copy into an int array", "solution", "Smoke", "ReadOnlySpan<byte> storage = CollectionsMarshal.AsBytes(bits);", "int[] copy = new int[(bits.Length + 31) / 32];\n        bits.CopyTo(copy, 0);\n        ReadOnlySpan<byte> storage = MemoryMarshal.AsBytes(copy.AsSpan());", "✗ Not yet: CountOnes creates an array on every call")]
    [InlineData("the kept solution, measured", "solution", "Quick", "", "", "✓ the counts are right, no single bit is read and nothing is allocated per call on net10.0.")]
    public async Task Set_bits_check_passes_only_right_counts_read_from_the_storage_without_allocation(string answer, string start, string mode, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(SetBits, answer, from, find, replaceWith, expectedStart, Enum.Parse<PerfLab.Contract.BenchmarkMode>(mode));
    }

    /// <summary>
    /// regex/02's exercise: the pattern as the notebook's exercise cell has it explodes; the kept solution and an
    /// atomic group pass; patterns that accept other lines (a plain set, no empty line) or still explode (a lazy
    /// loop) and one that does not parse are refused with what went wrong.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", null, "✗ Not yet: matching \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\" took more than 250 ms: it still explodes")]
    [InlineData("the kept solution", "solution", "✓ your pattern accepts the same lines")]
    [InlineData("an atomic group", @"^(?>\w+\s?)*$", "✓ your pattern accepts the same lines")]
    [InlineData("a set of word and space characters", @"^[\w\s]*$", "✗ Not yet: \" leading\" is accepted by your pattern but refused by the original")]
    [InlineData("words with single spaces between, no empty line", @"^\w+(\s\w+)*\s?$", "✗ Not yet: \"\" is refused by your pattern but accepted by the original")]
    [InlineData("a lazy loop", @"^(\w+\s?)*?$", "✗ Not yet: matching \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\" took more than 250 ms")]
    [InlineData("an unclosed group", @"^(\w+\s?*$", "✗ Not yet: the pattern does not parse: Invalid pattern")]
    public async Task Line_pattern_check_passes_only_the_same_lines_without_explosion(string answer, string? pattern, string expectedStart)
    {
        // A pattern replaces the exercise's in its cell; null is the cell as it stands, "solution" the kept one.
        var (from, find, replaceWith) = pattern switch
        {
            null => (AnswerStart.Exercise, null, null),
            "solution" => (AnswerStart.Solution, "", ""),
            _ => (AnswerStart.Exercise, UnsolvedLinePattern, $"@\"{pattern}\""),
        };
        await CheckedAnswerAsync(LinePattern, answer, from, find, replaceWith, expectedStart);
    }

    /// <summary>
    /// regex/01's exercise, compiled by the kernel's session with the source generator: the unsolved class (a
    /// Regex built at run time) is refused; the kept solution passes, also with RegexOptions.Compiled left in;
    /// a lost IgnoreCase and a changed pattern are refused with what differs.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", null, null, "✗ Not yet: Stamps returns a regex built at run time")]
    [InlineData("the kept solution", "", "", "✓ Stamps is generated code")]
    [InlineData("Compiled left in", "RegexOptions.IgnoreCase)]", "RegexOptions.IgnoreCase | RegexOptions.Compiled)]", "✓ Stamps is generated code")]
    [InlineData("IgnoreCase lost", ", RegexOptions.IgnoreCase)]", ")]", "✗ Not yet: on \"2026-11-25t07:41z retry scheduled\" the generated regex finds 0 stamp(s), the original 1")]
    [InlineData("the pattern changed", "Z?\\b", "\\b", "✗ Not yet: the generated pattern is ")]
    public async Task Generated_stamps_check_passes_only_generated_code_with_the_same_matches(string answer, string? find, string? replaceWith, string expectedStart)
    {
        await CheckedAnswerAsync(LogDates, answer, AnswerStart.Solution, find, replaceWith, expectedStart);
    }

    /// <summary>
    /// regex/03's exercise: counts and the IL are checked in every mode, the bytes in quick mode on .NET 9 and 10.
    /// The kept solution (one search over the whole log) and a search per line pass; the unsolved Split, a
    /// SearchValues built per call, case-sensitive words, one hit per log, a line counted once per word, three
    /// span searches instead of one SearchValues, and a SearchValues hidden in a local function (only the bytes
    /// can see it) are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "exercise", "Smoke", null, null, "✗ Not yet: CountAlarms still calls String.Split, which returns a new array of strings")]
    [InlineData("the kept solution", "solution", "Smoke", "", "", "✓ the counts are right, one SearchValues<string> does the search and no string is created (smoke mode")]
    [InlineData("a search per line", "solution", "Smoke", SearchFromHitToLineEnd, SearchEachLine, "✓ the counts are right, one SearchValues<string> does the search")]
    [InlineData("a SearchValues built per call", "solution", "Smoke", "ReadOnlySpan<char> rest = log;", "SearchValues<string> AlarmWords = SearchValues.Create([\"error\", \"fail\", \"fatal\"], StringComparison.OrdinalIgnoreCase);\n        ReadOnlySpan<char> rest = log;", "✗ Not yet: CountAlarms builds its SearchValues on every call")]
    [InlineData("case-sensitive words", "solution", "Smoke", "StringComparison.OrdinalIgnoreCase);", "StringComparison.Ordinal);", "✗ Not yet: CountAlarms returns 0 for a log in capitals and mixed case (\"Fail\", \"FATAL\", \"eRRor\"); 3 of its lines mention error, fail or fatal. The words can be written in any case")]
    [InlineData("one answer for the whole log", "solution", "Smoke", SearchFromHitToLineEnd, WholeLogOnce, "✗ Not yet: CountAlarms returns 1 for a log with three alarm lines; 3 of its lines mention error, fail or fatal. Count the lines")]
    [InlineData("a line counted once per word", "solution", "Smoke", "rest = rest.Slice(hit + lineEnd + 1);", "rest = rest.Slice(hit + 1);", "✗ Not yet: CountAlarms returns 3 for three alarm words on the same line (\"error ... fail ... error\"); 1 of its lines mention error, fail or fatal. Count each line once")]
    [InlineData("three searches per line", "exercise", "Smoke", SplitAndLowerCase, ThreeSpanSearches, "✗ Not yet: the counts are right, but CountAlarms does not search with a SearchValues<string>")]
    [InlineData("the kept solution, measured", "solution", "Quick", "", "", "✓ the counts are right, one SearchValues<string> does the search and nothing is allocated per call on net9.0 and net10.0.")]
    [InlineData("a SearchValues built in a local function", "solution", "Quick", "int hit;\n        while ((hit = rest.IndexOfAny(AlarmWords)) >= 0)", "static SearchValues<string> Fresh() => SearchValues.Create([\"error\", \"fail\", \"fatal\"], StringComparison.OrdinalIgnoreCase);\n        int hit;\n        while ((hit = rest.IndexOfAny(Fresh())) >= 0)", "✗ Not yet: Count still allocates ")]
    public async Task Alarm_count_check_passes_only_right_counts_from_one_prebuilt_search_without_strings_or_allocation(string answer, string start, string mode, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(Alarms, answer, from, find, replaceWith, expectedStart, Enum.Parse<PerfLab.Contract.BenchmarkMode>(mode));
    }

    private const string SearchFromHitToLineEnd = "ReadOnlySpan<char> rest = log;\n        int alarms = 0;\n        int hit;\n        while ((hit = rest.IndexOfAny(AlarmWords)) >= 0)\n        {\n            alarms++;\n            int lineEnd = rest.Slice(hit).IndexOfAny('\\r', '\\n');\n            if (lineEnd < 0)\n            {\n                break;\n            }\n\n            rest = rest.Slice(hit + lineEnd + 1);\n        }";

    private const string SearchEachLine = "int alarms = 0;\n        foreach (ReadOnlySpan<char> line in log.AsSpan().EnumerateLines())\n        {\n            if (line.ContainsAny(AlarmWords))\n            {\n                alarms++;\n            }\n        }";

    private const string WholeLogOnce = "int alarms = log.AsSpan().ContainsAny(AlarmWords) ? 1 : 0;";

    private const string SplitAndLowerCase = "foreach (string line in log.Split('\\n'))\n        {\n            string lower = line.ToLowerInvariant();\n            if (lower.Contains(\"error\") || lower.Contains(\"fail\") || lower.Contains(\"fatal\"))";

    private const string ThreeSpanSearches = "foreach (ReadOnlySpan<char> line in log.AsSpan().EnumerateLines())\n        {\n            if (line.Contains(\"error\", StringComparison.OrdinalIgnoreCase) || line.Contains(\"fail\", StringComparison.OrdinalIgnoreCase) || line.Contains(\"fatal\", StringComparison.OrdinalIgnoreCase))";
}
