using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Unit;

/// <summary>
/// Every text file of the repository is checked out with LF, whatever the clone's core.autocrlf: the tests match
/// multi-line text against notebooks, solutions, snapshots, docs, scripts and test data, and a Windows clone
/// would otherwise hand them CRLF.
/// </summary>
public sealed class LineEndingsTests
{
    [Fact]
    public void Every_text_file_is_checked_out_with_lf()
    {
        var attributesFile = Repo.PathOf(".gitattributes");
        Assert.True(File.Exists(attributesFile), ".gitattributes is missing: without its eol=lf rules a clone with core.autocrlf=true checks out CRLF and the tests that match multi-line text fail");
        var attributes = new GitAttributes(File.ReadAllText(attributesFile));

        var uncovered = TextFiles().Where(path => !attributes.ChecksOutWithLf(path)).ToArray();

        Assert.True(uncovered.Length == 0,
            $"Text files no .gitattributes rule checks out with LF (add a 'text eol=lf' rule that matches them): {string.Join(", ", uncovered)}");
    }

    [Theory]
    [InlineData("notebooks/solutions/jit-01-tiering-and-pgo.exercise.cs")]
    [InlineData("notebooks/jit/01-tiering-and-pgo.ipynb")]
    [InlineData("tests/PerfLab.Tests/Snapshots/asm-terminal.txt")]
    [InlineData("test.sh")]
    public void The_files_the_tests_match_text_against_are_among_the_files_checked(string path) =>
        Assert.Contains(path, TextFiles());

    /// <summary>
    /// The working tree's text files ('/'-separated), without the folders .gitignore names (build output,
    /// packages, reports), without .git (a file in a worktree) and without binaries (a NUL in the first 8000
    /// bytes, git's own test).
    /// </summary>
    private static IEnumerable<string> TextFiles()
    {
        var ignoredFolders = File.ReadAllLines(Repo.PathOf(".gitignore"))
            .Select(l => l.Trim())
            .Where(l => l.EndsWith('/') && !l.StartsWith('#'))
            .Select(l => l.TrimEnd('/'))
            .Append(".git")
            .ToHashSet(StringComparer.Ordinal);
        return Walk(Repo.Root).Select(path => Path.GetRelativePath(Repo.Root, path).Replace('\\', '/')).Order(StringComparer.Ordinal);

        IEnumerable<string> Walk(string folder) =>
            Directory.EnumerateFiles(folder).Where(f => !ignoredFolders.Contains(Path.GetFileName(f)) && IsText(f))
                .Concat(Directory.EnumerateDirectories(folder)
                    .Where(d => !ignoredFolders.Contains(Path.GetFileName(d)))
                    .SelectMany(Walk));
    }

    private static bool IsText(string path)
    {
        var head = new byte[8000];
        using var stream = File.OpenRead(path);
        var read = stream.ReadAtLeast(head, head.Length, throwOnEndOfStream: false);
        return Array.IndexOf(head, (byte)0, 0, read) < 0;
    }
}
