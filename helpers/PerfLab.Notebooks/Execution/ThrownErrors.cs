using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Execution;

/// <summary>An exception thrown by a cell as one output: the message first, the fix or the cell's frames after.</summary>
internal static class ThrownErrors
{
    public static ErrorOutput Describe(Exception exception)
    {
        while (exception is AggregateException { InnerExceptions.Count: 1 } aggregate)
        {
            exception = aggregate.InnerExceptions[0];
        }

        if (exception is PerfLabException expected)
        {
            // A failure the reader can act on: what happened and what to do, no stack trace.
            var details = expected.Details.ToList();
            if (expected.Fix is not null)
            {
                details.Add("fix: " + expected.Fix);
            }

            return new ErrorOutput("PerfLabException", expected.Message, details);
        }

        // Frames of the reader's code and the libraries it called, without the scripting machinery below.
        var frames = (exception.StackTrace ?? "")
            .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .TakeWhile(f => !f.Contains("Microsoft.CodeAnalysis.Scripting", StringComparison.Ordinal))
            .Select(f => "  " + f.Replace("Submission#", "cell#", StringComparison.Ordinal))
            .ToList();
        if (exception.InnerException is { } inner)
        {
            frames.Add($"  inner: {inner.GetType().Name}: {inner.Message}");
        }

        return new ErrorOutput(exception.GetType().Name, $"{exception.GetType().Name}: {exception.Message}", frames);
    }
}
