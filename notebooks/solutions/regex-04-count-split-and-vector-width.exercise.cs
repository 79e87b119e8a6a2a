public class ImageFiles
{
    private static readonly string[] Kinds = [".png", ".JPG", ".txt", ".Gif", ".cs", ".png.bak", ".PDF"];

    // A directory listing: 1,000 names, one a line (CRLF), in the case their authors typed.
    private readonly string _listing = string.Join("\r\n", Enumerable.Range(0, 1_000).Select(i => $"file-{i}{Kinds[i % Kinds.Length]}"));

    [Benchmark]
    public int Count() => CountImages(_listing);

    // Each line is a span of the listing (EnumerateLines drops "\n" and "\r\n"), so no string is made. Each suffix
    // is a constant compared ordinally, ignoring case: the call .NET 9's JIT can expand in place.
    public static int CountImages(string listing)
    {
        int images = 0;
        foreach (ReadOnlySpan<char> name in listing.AsSpan().EnumerateLines())
        {
            if (name.EndsWith(".png", StringComparison.OrdinalIgnoreCase)
                || name.EndsWith(".jpg", StringComparison.OrdinalIgnoreCase)
                || name.EndsWith(".gif", StringComparison.OrdinalIgnoreCase))
            {
                images++;
            }
        }

        return images;
    }
}
