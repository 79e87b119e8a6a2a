using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>The tests' home: each run measures afresh, and only what cannot be wrong is shared between runs.</summary>
public sealed class TestHomeTests
{
    [Fact]
    public void A_result_cached_by_one_run_is_not_seen_by_the_next_but_runtimes_and_builds_are_shared()
    {
        using var shared = new TempFolder();
        var first = new PerfLabHome(TestHome.Prepare(shared.Path, "first"));
        var second = new PerfLabHome(TestHome.Prepare(shared.Path, "second"));

        Directory.CreateDirectory(first.ResultsCache);
        File.WriteAllText(Path.Combine(first.ResultsCache, "noisy.json"), "{}");
        Directory.CreateDirectory(first.AsmCache);
        File.WriteAllText(Path.Combine(first.AsmCache, "listing.json"), "{}");
        File.WriteAllText(Path.Combine(first.Builds, "bench.dll"), "x");
        File.WriteAllText(Path.Combine(first.DotnetRoot, "dotnet"), "x");

        Assert.False(Directory.Exists(second.ResultsCache) && Directory.EnumerateFileSystemEntries(second.ResultsCache).Any(), "the second run sees the first run's cached results");
        Assert.False(Directory.Exists(second.AsmCache) && Directory.EnumerateFileSystemEntries(second.AsmCache).Any(), "the second run sees the first run's asm listings");
        Assert.True(File.Exists(Path.Combine(second.Builds, "bench.dll")), "compiled benchmarks are not shared between runs");
        Assert.True(File.Exists(Path.Combine(second.DotnetRoot, "dotnet")), "provisioned runtimes are not shared between runs");
        Assert.Equal(Path.Combine(shared.Path, "locks"), new DirectoryInfo(Path.Combine(second.Root, "locks")).ResolveLinkTarget(returnFinalTarget: true)?.FullName);
    }

    [Fact]
    public void The_same_run_in_two_test_processes_shares_one_home_and_a_stale_run_is_removed_without_touching_shared_folders()
    {
        using var shared = new TempFolder();
        var stale = TestHome.Prepare(shared.Path, "crashed");
        File.WriteAllText(Path.Combine(stale, "builds", "kept.dll"), "x");
        Directory.SetLastWriteTimeUtc(stale, DateTime.UtcNow.AddDays(-2));

        var once = TestHome.Prepare(shared.Path, "run");
        var again = TestHome.Prepare(shared.Path, "run");

        Assert.Equal(once, again);
        Assert.False(Directory.Exists(stale), "a run folder two days old is still there");
        Assert.True(File.Exists(Path.Combine(shared.Path, "builds", "kept.dll")), "removing a stale run deleted the shared builds it linked to");
    }
}
