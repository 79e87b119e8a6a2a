using System.Diagnostics.CodeAnalysis;
using System.Reflection;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The skeleton every check of a method of the reader's follows, each step with its one message: the exercise
/// class given, its method kept with the exercise's signature, then the method's answers on cases whose answer is
/// known. A step hands back the hint for the first thing wrong, so a check is its steps in order plus what its
/// exercise alone asks (what the IL may call, the bytes the run measured, the listings).
/// </summary>
internal static class ExerciseSteps
{
    /// <summary>Whether an exercise class was given; false, with the hint that asks for it, when none was.</summary>
    /// <param name="exercise">What the check cell passed.</param>
    /// <param name="checkCall">How the check cell calls the check: "Bits.CheckCountOnes(typeof(SetBits), exercise)".</param>
    /// <param name="hint">What to pass, when nothing was.</param>
    public static bool IsGiven([NotNullWhen(true)] Type? exercise, string checkCall, [NotNullWhen(false)] out ExerciseResult? hint)
    {
        hint = exercise is null ? ExerciseResult.NotYet($"pass the exercise class, e.g. {checkCall}.") : null;
        return exercise is not null;
    }

    /// <summary>The exercise class's public static method with the exercise's signature; false, with the hint, when the class or the method is missing.</summary>
    /// <typeparam name="TResult">The return type the exercise keeps.</typeparam>
    /// <param name="exercise">What the check cell passed.</param>
    /// <param name="checkCall">How the check cell calls the check, for <see cref="IsGiven"/>.</param>
    /// <param name="declaration">The method as the exercise declares it: "public static int CountOnes(BitArray bits)".</param>
    /// <param name="name">The method's name.</param>
    /// <param name="parameters">Its parameter types.</param>
    /// <param name="method">The reader's method.</param>
    /// <param name="hint">What to change, when there is no such method.</param>
    public static bool TryFindMethod<TResult>(
        Type? exercise,
        string checkCall,
        string declaration,
        string name,
        Type[] parameters,
        [NotNullWhen(true)] out MethodInfo? method,
        [NotNullWhen(false)] out ExerciseResult? hint)
    {
        method = null;
        if (!IsGiven(exercise, checkCall, out hint))
        {
            return false;
        }

        method = ReaderCode.StaticMethod<TResult>(exercise, name, parameters);
        if (method is null)
        {
            hint = ExerciseResult.NotYet($"{exercise.Name} needs `{declaration}`: keep its signature and change its body.");
            return false;
        }

        return true;
    }

    /// <summary>
    /// The method called on each case in order, its answer compared with the one known for the case (worked out
    /// before the call, so a method that changes its argument cannot change the answer it is held to): the hint for
    /// the first case it throws on or answers wrong, or null when it answers every case right.
    /// </summary>
    /// <typeparam name="TCase">A case: its input and what the hints say of it.</typeparam>
    /// <typeparam name="TAnswer">What the method returns.</typeparam>
    /// <param name="method">The reader's static method.</param>
    /// <param name="cases">The cases, in the order they are tried.</param>
    /// <param name="arguments">The method's arguments for a case.</param>
    /// <param name="expected">The right answer for a case.</param>
    /// <param name="threw">The hint when the method threw on a case.</param>
    /// <param name="wrong">The hint when it answered a case wrong: the case, its answer, the right one.</param>
    public static ExerciseResult? FirstWrongAnswer<TCase, TAnswer>(
        MethodInfo method,
        IEnumerable<TCase> cases,
        Func<TCase, object?[]> arguments,
        Func<TCase, TAnswer> expected,
        Func<TCase, Exception, string> threw,
        Func<TCase, TAnswer, TAnswer, string> wrong)
    {
        foreach (var @case in cases)
        {
            var known = expected(@case);
            if (!ReaderCode.TryCall(method, arguments(@case), out TAnswer answer, out var thrown))
            {
                return ExerciseResult.NotYet(threw(@case, thrown));
            }

            if (!EqualityComparer<TAnswer>.Default.Equals(answer, known))
            {
                return ExerciseResult.NotYet(wrong(@case, answer, known));
            }
        }

        return null;
    }

    /// <summary>
    /// The known answer of the exercises that count lines, the slow and obvious way: the lines of <paramref name="text"/>
    /// (split at '\n', a '\r' before it dropped) for which <paramref name="matches"/> holds; none in an empty text.
    /// </summary>
    /// <param name="text">The text, one item a line.</param>
    /// <param name="matches">Whether a line counts.</param>
    public static int CountLines(string text, Func<string, bool> matches) =>
        text.Length == 0 ? 0 : text.Split('\n').Count(line => matches(line.TrimEnd('\r')));
}
