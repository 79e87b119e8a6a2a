using PerfLab.Notebooks.Exercises;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>
/// The skeleton of the exercise checks (ExerciseSteps): the class asked for, the method found by its signature only,
/// the cases tried in order up to the first that throws or answers wrong, and the known answer of line counts.
/// The reader's classes here are plain C#; the exercises' own tests build the readers' answers with Roslyn.
/// </summary>
public class ExerciseStepsTests
{
    private const string CheckCall = "Demo.CheckHalf(typeof(Halves), exercise)";
    private const string Declaration = "public static int Half(int value)";

    [Fact]
    public void No_class_given_asks_for_it_with_the_check_cells_call()
    {
        Assert.False(ExerciseSteps.IsGiven(null, CheckCall, out var hint));
        Assert.Equal("✗ Not yet: pass the exercise class, e.g. Demo.CheckHalf(typeof(Halves), exercise).", hint.ToString());

        Assert.False(ExerciseSteps.TryFindMethod<int>(null, CheckCall, Declaration, "Half", [typeof(int)], out var method, out var found));
        Assert.Null(method);
        Assert.Equal(hint, found);

        Assert.True(ExerciseSteps.IsGiven(typeof(Halves), CheckCall, out var none));
        Assert.Null(none);
    }

    [Theory]
    [InlineData(typeof(Halves), null)]
    [InlineData(typeof(RenamedHalves), "RenamedHalves")]
    [InlineData(typeof(LongHalves), "LongHalves")]
    [InlineData(typeof(InstanceHalves), "InstanceHalves")]
    [InlineData(typeof(TwoArgumentHalves), "TwoArgumentHalves")]
    public void The_method_is_found_by_its_name_return_type_and_parameters_as_a_public_static_method(Type exercise, string? missingIn)
    {
        var found = ExerciseSteps.TryFindMethod<int>(exercise, CheckCall, Declaration, "Half", [typeof(int)], out var method, out var hint);

        if (missingIn is null)
        {
            Assert.True(found, hint?.ToString());
            Assert.Equal(typeof(Halves).GetMethod("Half"), method);
        }
        else
        {
            Assert.False(found);
            Assert.Equal($"✗ Not yet: {missingIn} needs `public static int Half(int value)`: keep its signature and change its body.", hint?.ToString());
        }
    }

    [Fact]
    public void Every_case_answered_right_goes_on()
    {
        Assert.Null(FirstWrong(typeof(Halves), [0, 2, 10, -4]));
    }

    [Fact]
    public void The_first_wrong_answer_is_the_hint_and_no_later_case_is_tried()
    {
        WrongFromSix.Calls.Clear();

        var hint = FirstWrong(typeof(WrongFromSix), [2, 6, 8, 100]);

        Assert.Equal("✗ Not yet: Half(6) returns 4; half of 6 is 3.", hint?.ToString());
        Assert.Equal([2, 6], WrongFromSix.Calls);
    }

    [Fact]
    public void A_case_that_throws_is_the_hint_with_what_the_readers_code_threw()
    {
        var hint = FirstWrong(typeof(ThrowsOnNegatives), [4, -2, -8]);

        Assert.Equal("✗ Not yet: Half(-2) threw ArgumentOutOfRangeException: a negative value (Parameter 'value')", hint?.ToString());
    }

    [Fact]
    public void The_known_answer_is_worked_out_before_the_readers_method_can_change_the_case()
    {
        var method = typeof(Clears).GetMethod("Count")!;

        var hint = ExerciseSteps.FirstWrongAnswer(method, [new List<int> { 1, 2, 3 }], c => [c], c => c.Count, (_, thrown) => thrown.Message, (_, answer, expected) => $"{answer} for {expected}");

        Assert.Equal("✗ Not yet: 0 for 3", hint?.ToString());
    }

    [Theory]
    [InlineData("", 0)]
    [InlineData("a", 1)]
    [InlineData("a\nba\n", 2)]
    [InlineData("a\r\nba\r\nc", 2)]
    [InlineData("a\r\n\r\n\r\na\r\n", 2)]
    [InlineData("xa\nax\n", 1)]
    public void Lines_are_counted_split_at_line_feeds_with_the_carriage_return_before_them_dropped(string text, int endingInA)
    {
        Assert.Equal(endingInA, ExerciseSteps.CountLines(text, line => line.EndsWith('a')));
    }

    private static ExerciseResult? FirstWrong(Type exercise, int[] values)
    {
        Assert.True(ExerciseSteps.TryFindMethod<int>(exercise, CheckCall, Declaration, "Half", [typeof(int)], out var method, out _));
        return ExerciseSteps.FirstWrongAnswer(
            method,
            values,
            v => [v],
            v => v / 2,
            (v, thrown) => $"Half({v}) threw {thrown.GetType().Name}: {thrown.Message}",
            (v, answer, expected) => $"Half({v}) returns {answer}; half of {v} is {expected}.");
    }

    public static class Halves
    {
        public static int Half(int value) => value / 2;
    }

    public static class RenamedHalves
    {
        public static int Halve(int value) => value / 2;
    }

    public static class LongHalves
    {
        public static long Half(int value) => value / 2;
    }

    public sealed class InstanceHalves
    {
        public int Half(int value) => value / 2;
    }

    public static class TwoArgumentHalves
    {
        public static int Half(int value, int by) => value / by;
    }

    public static class WrongFromSix
    {
        public static List<int> Calls { get; } = [];

        public static int Half(int value)
        {
            Calls.Add(value);
            return value < 6 ? value / 2 : (value / 2) + 1;
        }
    }

    public static class ThrowsOnNegatives
    {
        public static int Half(int value) => value >= 0 ? value / 2 : throw new ArgumentOutOfRangeException(nameof(value), "a negative value");
    }

    public static class Clears
    {
        public static int Count(List<int> values)
        {
            values.Clear();
            return values.Count;
        }
    }
}
