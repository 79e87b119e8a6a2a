using PerfLab.Files;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>AtomicFile: the one write-to-staging-then-move; a failed write leaves the target as it was and no staging file.</summary>
public class AtomicFileTests
{
    [Fact]
    public async Task Writes_and_replaces_text_bytes_and_copies_leaving_only_the_target()
    {
        using var folder = new TempFolder();
        var target = Path.Combine(folder.Path, "a.json");

        AtomicFile.WriteAllText(target, "one");
        Assert.Equal("one", File.ReadAllText(target));
        await AtomicFile.WriteAllTextAsync(target, "two", CancellationToken.None);
        Assert.Equal("two", File.ReadAllText(target));
        AtomicFile.WriteAllBytes(target, [1, 2]);
        Assert.Equal(new byte[] { 1, 2 }, File.ReadAllBytes(target));
        await AtomicFile.WriteAllBytesAsync(target, [3], CancellationToken.None);
        Assert.Equal(new byte[] { 3 }, File.ReadAllBytes(target));
        var source = folder.Write("source.txt", "copied");
        AtomicFile.Copy(source, target);
        Assert.Equal("copied", File.ReadAllText(target));

        Assert.Equal(["a.json", "source.txt"], Directory.GetFiles(folder.Path).Select(f => Path.GetFileName(f)).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task A_write_that_fails_or_says_it_failed_leaves_the_target_and_no_staging_file()
    {
        using var folder = new TempFolder();
        var target = folder.Write("kept.txt", "old");

        Assert.Throws<FileNotFoundException>(() => AtomicFile.Copy(Path.Combine(folder.Path, "missing"), target));
        await Assert.ThrowsAsync<InvalidOperationException>(() => AtomicFile.TryWriteAsync(target, async staging =>
        {
            await File.WriteAllTextAsync(staging, "half");
            throw new InvalidOperationException("the writer broke");
        }));
        var written = await AtomicFile.TryWriteAsync(target, async staging =>
        {
            await File.WriteAllTextAsync(staging, "not wanted");
            return false;
        });

        Assert.False(written);
        Assert.Equal("old", File.ReadAllText(target));
        Assert.Equal(["kept.txt"], Directory.GetFiles(folder.Path).Select(f => Path.GetFileName(f)));
    }
}
