using System.Reflection;
using System.Text.RegularExpressions;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/regex/01-engines.ipynb: move a pattern created at run time with
/// RegexOptions.Compiled to the source generator. The check finds the [GeneratedRegex] method, makes sure
/// the regex it returns is the generator's code (not a Regex built at run time), and compares its matches
/// with the original's on log lines that tell a forgotten option apart.
/// </summary>
public static class Engines
{
    private const string MethodName = "Stamps";
    private const string Pattern = @"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?Z?\b";

    /// <summary>Checks the reader's class.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(LogDates)</c>.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckGeneratedStamps(Type? exercise)
    {
        if (!ExerciseSteps.IsGiven(exercise, "Engines.CheckGeneratedStamps(typeof(LogDates))", out var hint))
        {
            return hint;
        }

        var method = ReaderCode.StaticMethod<Regex>(exercise, MethodName);
        if (method is null)
        {
            return ExerciseResult.NotYet($"{exercise.Name} needs `public static partial Regex {MethodName}()`: keep the method's name and return type.");
        }

        if (method.GetCustomAttribute<GeneratedRegexAttribute>() is null)
        {
            return ExerciseResult.NotYet($"{MethodName} returns a regex built at run time. Declare it `[GeneratedRegex(pattern, options)] public static partial Regex {MethodName}();` (the class is already partial) and delete the field.");
        }

        if (!ReaderCode.TryCall(method, null, out Regex stamps, out var thrown))
        {
            return ExerciseResult.NotYet($"{MethodName} threw {thrown.GetType().Name}: {thrown.Message}");
        }

        if (stamps.GetType() == typeof(Regex))
        {
            return ExerciseResult.NotYet($"{MethodName} returns a plain Regex: the generator fell back to building one at run time. Look for a SYSLIB warning about the pattern or options.");
        }

        if (stamps.ToString() != Pattern)
        {
            return ExerciseResult.NotYet($"the generated pattern is {stamps}, not the original {Pattern}: copy it exactly (a verbatim string keeps the backslashes).");
        }

        var original = new Regex(Pattern, RegexOptions.IgnoreCase);
        foreach (var line in Lines())
        {
            var expected = original.Count(line);
            var answer = stamps.Count(line);
            if (answer != expected)
            {
                return ExerciseResult.NotYet($"on \"{line}\" the generated regex finds {answer} stamp(s), the original {expected}. Did an option get lost on the way? (RegexOptions.Compiled is the one the generator does not need.)");
            }
        }

        var compiled = (stamps.Options & RegexOptions.Compiled) != 0 ? " RegexOptions.Compiled is ignored by the generator: its code is compiled with your project anyway, so you can drop it." : "";
        return ExerciseResult.Pass($"{MethodName} is generated code ({stamps.GetType().Name}) and finds the same stamps as the original.{compiled}");
    }

    private static IEnumerable<string> Lines() =>
    [
        "2026-11-25T07:40:00Z job started",
        "2026-11-25t07:41z retry scheduled",
        "no stamp here, only 2026-11-25",
        "two: 2026-01-02T03:04 and 2026-01-02T03:04:05Z",
        "glued2026-11-25T07:40:00Zglued",
        "",
    ];
}
