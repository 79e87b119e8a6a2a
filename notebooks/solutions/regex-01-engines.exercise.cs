using System.Text.RegularExpressions;

public partial class LogDates
{
    // Same pattern, same IgnoreCase; no Compiled: the generator's code is compiled with the project.
    [GeneratedRegex(@"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?Z?\b", RegexOptions.IgnoreCase)]
    public static partial Regex Stamps();
}
