using PerfLab.Contract;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;
using static PerfLab.Notebooks.Tests.Support.ExerciseAnswers;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>The jit track's exercises (notebooks/jit): each check on the answers a reader is likely to write.</summary>
public sealed class JitExerciseTests
{
    private static readonly Exercise ProfileOff = new(
        "jit/01-tiering-and-pgo.ipynb", "var exercise", null, "jit-01-tiering-and-pgo.exercise.cs",
        "TieringAndPgo.CheckProfileOff(exercise)");

    private static readonly Exercise Segment = new(
        "jit/02-stack-allocation.ipynb", "class Segment", "\nvar exercise", "jit-02-stack-allocation.exercise.cs",
        "StackAllocation.CheckNoEscape(typeof(Segment), exercise)");

    private static readonly Exercise FasterLoop = new(
        "jit/03-devirtualization.ipynb", "var fasterOnNet9", null, "jit-03-devirtualization.exercise.cs",
        "Devirtualization.CheckFasterLoop(await Lab.RunAsync<ReadOnlyReadings>(), fasterOnNet9, fasterOnNet10)");

    private static readonly Exercise Readings = new(
        "jit/04-bounds-checks.ipynb", "class Readings", "\nvar readingsAsm", "jit-04-bounds-checks.exercise.cs",
        "BoundsChecks.CheckNoRangeCheck(typeof(Readings), readingsAsm)");

    private static readonly Exercise Tally = new(
        "jit/05-loops-and-inlining.ipynb", "class Tally", "\nawait Lab.RunAsync", "jit-05-loops-and-inlining.exercise.cs",
        "Inlining.CheckInlinedEverywhere(typeof(Tally), tallyAsm)")
    {
        // The notebook's next cell, without the exercise cell's measurement: the check reads only the listing.
        Call = "var tallyAsm = await Lab.AsmAsync<Tally>(\"ScaleAll\");",
    };

    private static readonly Exercise Letters = new(
        "jit/06-folding-branches-barriers.ipynb", "class Letters", "\nvar lettersAsm", "jit-06-folding-branches-barriers.exercise.cs",
        "Branches.CheckOneCompare(typeof(Letters), lettersAsm)");

    private static readonly Exercise Spaces = new(
        "jit/07-vectorization.ipynb", "class Spaces", "\nvar spacesAsm", "jit-07-vectorization.exercise.cs",
        "Vectorization.CheckVectorCount(typeof(Spaces), spacesAsm)");

    private static readonly Exercise Scrambler = new(
        "jit/08-tier0-inlining-and-stores.ipynb", "class Scrambler", "\nvar scramblerAsm", "jit-08-tier0-inlining-and-stores.exercise.cs",
        "Zeroing.CheckNoZeroing(typeof(Scrambler), scramblerAsm)");

    // The field an answer keeps a point in.
    private static readonly Edit[] DeclareLastPoint = [new("public class Segment\n{", "public class Segment\n{\n    private Point? _last;")];

    /// <summary>
    /// jit/01's exercise measured for real in quick mode on .NET 10: the notebook's own class, the exercise
    /// cell with each answer, and the check. Also what the notebook claims about bytes: none with the
    /// profile (<see cref="BytesWithProfile"/>), 32 (the enumerator) without it; bytes do not depend on the machine.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "[]", "✗ Not yet: the run had no environment setting")]
    [InlineData("the kept solution", "[\"DOTNET_TieredPGO=0\"]", "✓ with DOTNET_TieredPGO=0 .NET 10 allocated 32 B per call")]
    [InlineData("a setting that leaves PGO on", "[\"DOTNET_ReadyToRun=0\"]", "✗ Not yet: with DOTNET_ReadyToRun=0 .NET 10 still allocated ")]
    public async Task Profile_off_check_passes_only_when_the_enumerator_is_allocated_again(string answer, string env, string expectedStart)
    {
        // The kept solution is the exercise cell with the profile's setting in its env list.
        var exercise = ProfileOff.Cell(ProfileOff.CellMarker).Source;
        var profileOff = exercise.Replace("env: []", "env: [\"DOTNET_TieredPGO=0\"]", StringComparison.Ordinal);
        Assert.Equal(profileOff.Trim(), (await ProfileOff.ReadSolutionAsync()).Trim());

        // The notebook's benchmark before the answer. Its bytes with the profile are measured once for every answer
        // (the check reads only the answer's run); here it declares the class to Lab with a smoke run on .NET 10.
        var benchmark = ProfileOff.Cell("class ArrayAsSequence").Source;
        Assert.Contains(RunWithProfile, benchmark, StringComparison.Ordinal);
        var declared = benchmark.Replace(RunWithProfile, DeclareOnNet10, StringComparison.Ordinal);

        var bytesWithProfile = await BytesWithProfile.Value;
        Assert.True(bytesWithProfile == "0", $"{answer}: .NET 10 with its profile allocated {bytesWithProfile} B per call; the notebook says none");
        await CheckedAnswerAsync(ProfileOff, answer, AnswerStart.Exercise, "env: []", "env: " + env, expectedStart, BenchmarkMode.Quick, before: [declared]);
    }

    // jit/01's benchmark cell on .NET 10 alone, in quick mode, in a session of its own: its bytes per call with the
    // profile, as text. Measured once per test run and read by every answer: the answers' sessions read only bytes,
    // and a run that reads only bytes is never cached, so each session measuring it would measure it three times.
    private static readonly Lazy<Task<string?>> BytesWithProfile = new(async () =>
    {
        var benchmark = ProfileOff.Cell("class ArrayAsSequence").Source;
        using var cells = new CellRecorder(Path.GetDirectoryName(ProfileOff.Path), BenchmarkMode.Quick, readsOnlyBytes: true);
        var setup = await cells.RunAsync(SetupCell.For(ProfileOff.Path, Repo.Root));
        var withProfile = await cells.RunAsync(benchmark.Replace(RunWithProfile, RunOnNet10ShowingBytes, StringComparison.Ordinal));
        Assert.True(setup.Outcome.Succeeded && withProfile.Outcome.Succeeded, $"jit/01's benchmark on .NET 10 with its profile:\n{setup}\n{withProfile}");
        return withProfile.ResultText;
    });

    /// <summary>
    /// jit/02's exercise: structure in smoke mode (a cold call never stack-allocates), and the real bytes
    /// on .NET 9 and 10 in quick mode: the kept solution allocates nothing, a field store still escapes.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "Smoke", null, null, "✗ Not yet: Distance receives the points and is marked NoInlining")]
    [InlineData("Point turned into a struct", "Smoke", "public sealed class Point", "public readonly struct Point", "✗ Not yet: Point became a struct")]
    [InlineData("the kept solution", "Quick", "", "", "✓ the points no longer pass through a call the JIT cannot see, and Length still returns 5; .NET 9 and 10 allocated 0 B per call")]
    [InlineData("keeping a point in a field", "Quick", "return Distance(start, end);", PointKeptInField, "✗ Not yet: Length still allocates 32 B per call")]
    public async Task No_escape_check_passes_only_when_net9_and_net10_keep_the_points_on_the_stack(string answer, string mode, string? find, string? replaceWith, string expectedStart)
    {
        var alsoEdit = replaceWith?.Contains("_last", StringComparison.Ordinal) == true ? DeclareLastPoint : null;
        await CheckedAnswerAsync(Segment, answer, AnswerStart.Solution, find, replaceWith, expectedStart, Enum.Parse<BenchmarkMode>(mode), alsoEdit);
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
        await CheckedAnswerAsync(FasterLoop, answer, from, find, replaceWith, expectedStart, before: [FasterLoop.Cell("class ReadOnlyReadings").Source]);
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
    [InlineData("Unsafe.Add", "foreach (int sample in samples.AsSpan(0, count))", UnsafeAddLoop, "✗ Not yet: SumFirst uses ")]
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
    [InlineData("AggressiveInlining on the try/finally", CountingScale, AggressiveTryFinallyScale, "✗ Not yet: on net8.0 ScaleAll still calls Scale")]
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
    [InlineData("the library's Count", "exercise", "foreach (byte b in text)   // change this body", LibraryCount, "✗ Not yet: CountSpaces calls the library to count")]
    public async Task Vector_count_check_passes_only_a_right_count_with_a_vector_compare_everywhere(string answer, string start, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(Spaces, answer, from, find, replaceWith, expectedStart);
    }

    // jit/01's benchmark cell runs its class on every runtime with the profile on.
    private const string RunWithProfile = "await Lab.RunAsync<ArrayAsSequence>()";

    // jit/01: the class declared to Lab (a later cell's run finds it), by the cheapest run there is.
    private const string DeclareOnNet10 = "await Lab.RunAsync<ArrayAsSequence>(runtimes: [\"net10.0\"], mode: \"smoke\")";

    // jit/01: the same run on .NET 10 alone, showing its bytes per call.
    private const string RunOnNet10ShowingBytes =
        "var withProfile = await Lab.RunAsync<ArrayAsSequence>(runtimes: [\"net10.0\"]);\n" +
        "withProfile.Results.Single().AllocatedBytes";

    // jit/02: a point kept in a field escapes.
    private const string PointKeptInField =
        "_last = end;\n" +
        "        return Distance(start, end);";

    // jit/03's exercise cell as the notebook has it.
    private const string Unanswered = "var fasterOnNet9 = \"?\";\nvar fasterOnNet10 = \"?\";";

    // jit/04: the loop through Unsafe.Add, which has no bounds check because it has no safety.
    private const string UnsafeAddLoop =
        "for (int i = 0; i < count; i++)\n" +
        "        {\n" +
        "            total += Unsafe.Add(ref System.Runtime.InteropServices.MemoryMarshal.GetArrayDataReference(samples), i);\n" +
        "        }\n" +
        "        foreach (int sample in Array.Empty<int>())";

    // jit/05: the kept solution's Scale.
    private const string CountingScale =
        "    public static int Scale(int value)\n" +
        "    {\n" +
        "        s_calls++;\n" +
        "        return value * 3;\n" +
        "    }";

    // jit/05: the unsolved try/finally, marked AggressiveInlining.
    private const string AggressiveTryFinallyScale =
        "    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]\n" +
        "    public static int Scale(int value)\n" +
        "    {\n" +
        "        try\n" +
        "        {\n" +
        "            return value * 3;\n" +
        "        }\n" +
        "        finally\n" +
        "        {\n" +
        "            s_calls++;\n" +
        "        }\n" +
        "    }";

    // jit/07: the library's Count, the byte loop left to run over nothing.
    private const string LibraryCount =
        "count = text.AsSpan().Count((byte)' ');\n" +
        "        foreach (byte b in Array.Empty<byte>())";

    /// <summary>
    /// jit/08's exercise on the reader's own listings and output: the kept solution zeroes nothing; the unsolved table,
    /// the attribute on the benchmark method instead of Scramble, a table filled only halfway (read where never
    /// written: the pattern the check left on the stack shows), and a table on the heap are refused.
    /// </summary>
    [Theory]
    [InlineData("the unsolved exercise", "exercise", null, null, "✗ Not yet: on net8.0 Scramble still zeroes 256 bytes of stack")]
    [InlineData("the kept solution", "solution", "", "", "✓ Scramble still maps every byte right, and no runtime zeroes its table first")]
    [InlineData("the attribute on the benchmark method", "exercise", "    [Benchmark]\n    public int ScrambleMessage()", "    [Benchmark, System.Runtime.CompilerServices.SkipLocalsInit]\n    public int ScrambleMessage()", "✗ Not yet: on net8.0 Scramble still zeroes 256 bytes of stack")]
    [InlineData("half the table filled", "solution", "for (int i = 0; i < table.Length; i++)", "for (int i = 0; i < 128; i++)", "✗ Not yet: Scramble(every byte 0 to 255, key 0x5A) writes 0x")]
    [InlineData("the table on the heap", "exercise", "Span<byte> table = stackalloc byte[256];", "byte[] table = new byte[256];", "✗ Not yet: on net8.0 Scramble allocates")]
    public async Task No_zeroing_check_passes_only_a_stack_table_written_before_it_is_read_with_no_zeroing_on_any_runtime(string answer, string start, string? find, string? replaceWith, string expectedStart)
    {
        var from = start == "exercise" ? AnswerStart.Exercise : AnswerStart.Solution;
        await CheckedAnswerAsync(Scrambler, answer, from, find, replaceWith, expectedStart);
    }
}
