namespace PerfLab;

/// <summary>
/// A failure the reader can do something about: <see cref="Exception.Message"/> says what happened,
/// <see cref="Fix"/> says what to do. Anything else escaping the library is a bug.
/// </summary>
public sealed class PerfLabException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">What happened, in one sentence.</param>
    /// <param name="fix">What the reader can do about it, or null when the message says it all.</param>
    /// <param name="details">Extra lines (compiler diagnostics, a child's output), shown below the message.</param>
    /// <param name="inner">The underlying exception, if any.</param>
    public PerfLabException(string message, string? fix = null, IReadOnlyList<string>? details = null, Exception? inner = null)
        : base(message, inner)
    {
        Fix = fix;
        Details = details ?? [];
    }

    /// <summary>What the reader can do about it.</summary>
    public string? Fix { get; }

    /// <summary>Extra lines such as compiler diagnostics.</summary>
    public IReadOnlyList<string> Details { get; }
}
