namespace PerfLab.Inputs;

/// <summary>
/// The small fixed inputs the "Performance Improvements in .NET" posts wrote inline in their benchmarks,
/// exactly as there, each named by the figure id (data/outline.json) whose benchmark uses it.
/// </summary>
public static class PostInputs
{
    /// <summary>N10-R02: the input of <c>^[A-Za-z]+\b</c> (a word boundary after a subset of <c>\w</c>): letters, then a digit.</summary>
    public const string LongWord = "Supercalifragilisticexpialidocious1";

    /// <summary>
    /// N10-R06: the C-style comments <c>/\*(?:.|\n)*?\*/</c> counts, three of them, the last over two lines;
    /// lines joined with "\n" as in the post's raw string literal.
    /// </summary>
    public const string CComments = "/* This is a comment. */\n/* Another comment */\n/* Multi-line\n   comment */";

    /// <summary>C30-RX01: the address <see cref="EmailPattern"/> validates.</summary>
    public const string EmailAddress = "someAddress@someCompany.com";

    /// <summary>
    /// C30-RX01: .NET Framework's e-mail validation pattern (EmailAddressAttribute, referencesource
    /// commit aaca53b0), used with RegexOptions.Compiled | IgnoreCase | ExplicitCapture.
    /// </summary>
    public const string EmailPattern = @"^((([a-z]|\d|[!#\$%&'\*\+\-\/=\?\^_`{\|}~]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])+(\.([a-z]|\d|[!#\$%&'\*\+\-\/=\?\^_`{\|}~]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])+)*)|((\x22)((((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(([\x01-\x08\x0b\x0c\x0e-\x1f\x7f]|\x21|[\x23-\x5b]|[\x5d-\x7e]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(\\([\x01-\x09\x0b\x0c\x0d-\x7f]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]))))*(((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(\x22)))@((([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])*([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])))\.)+(([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])*([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])))\.?$";

    /// <summary>C30-AS05: <c>string.IndexOf('.', StringComparison.Ordinal)</c> finds the period near the end.</summary>
    public const string PeriodSentence = "Let's see how fast we can find the period towards the end of this string. Pretty fast?";

    /// <summary>C30-SP07: as UTF-8 bytes, searched with <c>IndexOfAny((byte)'.', (byte)'?')</c>.</summary>
    public const string QuestionSentence = "This is a test to see improvements to IndexOfAny. How'd they work?";

    /// <summary>N10-M02: the input of <c>string.Normalize()</c>, ASCII then U+263A U+FE0F (a smiling face and an emoji variation selector).</summary>
    public const string NormalizeInput = "This is a test. This is only a test. Nothing to see here. \u263A\uFE0F";

    /// <summary>N10-M03: the input of <c>HttpUtility.UrlDecode</c>: ten ASCII letters, then U+263A U+FE0F percent-encoded as UTF-8.</summary>
    public const string UrlEncoded = "aaaaabbbbb%e2%98%ba%ef%b8%8f";
}
