using System.CommandLine;
using PerfLab.Files;

namespace PerfLab.Cli;

/// <summary>
/// The one way the commands write the files a reader asks for (reports, pages, JSON, text): the folder is made,
/// the write is atomic (an interrupted one leaves the old file or none, never half of it) and the full path comes back.
/// </summary>
internal static class OutputFiles
{
    /// <summary>Writes <paramref name="text"/> to <paramref name="path"/> and returns its full path.</summary>
    public static Task<string> WriteAsync(string path, string text, CancellationToken cancellationToken) =>
        WriteAsync(path, full => AtomicFile.WriteAllTextAsync(full, text, cancellationToken));

    /// <summary>Writes <paramref name="bytes"/> to <paramref name="path"/> and returns its full path.</summary>
    public static Task<string> WriteAsync(string path, byte[] bytes, CancellationToken cancellationToken) =>
        WriteAsync(path, full => AtomicFile.WriteAllBytesAsync(full, bytes, cancellationToken));

    /// <summary>When <paramref name="option"/> was given, writes <paramref name="content"/> there and prints "<paramref name="label"/>: full path".</summary>
    public static async Task WriteAsync(ParseResult parse, Option<string?> option, string label, Func<string> content, TextWriter output, CancellationToken cancellationToken)
    {
        if (parse.GetValue(option) is { } path)
        {
            output.WriteLine($"{label}: {await WriteAsync(path, content(), cancellationToken).ConfigureAwait(false)}");
        }
    }

    private static async Task<string> WriteAsync(string path, Func<string, Task> write)
    {
        var full = Path.GetFullPath(path);
        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        await write(full).ConfigureAwait(false);
        return full;
    }
}
