using System.Reflection;
using PerfLab.Results;

namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// The exercise of notebooks/regex/04-count-split-and-vector-width.ipynb: count the image files (names ending in
/// ".png", ".jpg" or ".gif", in any case) of a directory listing, one name a line, without a string per line. The
/// check counts listings whose answer is known (LF and CRLF line ends, mixed case, an extension that is not at the
/// end, a last line without a line end, empty lines), reads from the IL whether the method creates strings, and,
/// outside smoke mode, the bytes the run measured on .NET 9 and 10.
/// </summary>
public static class Spans
{
    private const string MethodName = "CountImages";

    private static readonly string[] Extensions = [".png", ".jpg", ".gif"];

    /// <summary>Checks the reader's class and, when given, its run.</summary>
    /// <param name="exercise">The exercise class, e.g. <c>typeof(ImageFiles)</c>.</param>
    /// <param name="run">The exercise cell's run on .NET 9 and 10.</param>
    /// <returns>"✓ ..." when solved, "✗ Not yet: hint" otherwise; never throws.</returns>
    public static ExerciseResult CheckImageCount(Type exercise, BenchmarkRun? run)
    {
        if (!ExerciseSteps.TryFindMethod<int>(exercise, "Spans.CheckImageCount(typeof(ImageFiles), exercise)", $"public static int {MethodName}(string listing)", MethodName, [typeof(string)], out var method, out var hint))
        {
            return hint;
        }

        var wrong = ExerciseSteps.FirstWrongAnswer(
            method,
            Cases(),
            c => [c.Listing],
            c => ExerciseSteps.CountLines(c.Listing, line => Extensions.Any(extension => line.EndsWith(extension, StringComparison.OrdinalIgnoreCase))),
            (c, thrown) => $"{MethodName} threw {thrown.GetType().Name} for {c.What}: {thrown.Message}",
            (c, answer, expected) => $"{MethodName} returns {answer} for {c.What}; {expected} of its names end in .png, .jpg or .gif.{Hint(c.What)}");
        if (wrong is not null)
        {
            return wrong;
        }

        if (IlScanner.Read(method).Select(i => i.Called).OfType<MethodInfo>().FirstOrDefault(NewStrings.Returned) is { } called)
        {
            return ExerciseResult.NotYet($"{MethodName} still calls {NewStrings.Describe(called)} on every call. Walk the listing as a ReadOnlySpan<char>, line by line (EnumerateLines), and ask each line's span whether it ends with an extension, ignoring case.");
        }

        return MeasuredBytes.Check(run, ["net9.0", "net10.0"], "the counts are right and no string is created", "the counts are right", $"Look for a string or an array created in {MethodName} or in a method it calls.");
    }

    private static string Hint(string what) => what switch
    {
        _ when what.Contains("capitals", StringComparison.Ordinal) => " Names keep the case their authors typed: compare with StringComparison.OrdinalIgnoreCase.",
        _ when what.Contains("not at the end", StringComparison.Ordinal) => " Only the end of a name is its extension: ask EndsWith, not Contains.",
        _ when what.Contains("\\r\\n", StringComparison.Ordinal) => " A line that ends in \"\\r\\n\" keeps its '\\r' when you split at '\\n'; EnumerateLines() drops both.",
        _ => "",
    };

    private static IEnumerable<(string What, string Listing)> Cases()
    {
        yield return ("a listing with two images", "chart.png\nnotes.txt\nphoto.jpg\n");
        yield return ("names in capitals and mixed case (\"LOGO.PNG\", \"Photo.Jpg\", \"anim.GIF\")", "LOGO.PNG\nPhoto.Jpg\nanim.GIF\nREADME\n");
        yield return ("lines that end in \"\\r\\n\"", "chart.png\r\nnotes.txt\r\nphoto.jpg\r\n");
        yield return ("an empty listing", "");
        yield return ("a last line without a line end", "todo.txt\r\nlast.gif");
        yield return ("extensions that are not at the end of the name (\"old.png.bak\", \"gif-notes.txt\")", "old.png.bak\r\ngif-notes.txt\r\nscan.jpg.tmp\r\n");
        yield return ("empty lines between names", "a.png\r\n\r\n\r\nb.gif\r\n\r\n");
        yield return ("names with spaces and dots (\"holiday 2026.v2.JPG\")", "holiday 2026.v2.JPG\nmy.notes.md\n");
        yield return ("1,000 names, every third an image", string.Concat(Enumerable.Range(0, 1_000).Select(i => $"file-{i}{(i % 3 == 0 ? ".Png" : ".txt")}\r\n")));
    }
}
