using PerfLab.Course.Timings;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>Tests that change the process's environment (PERFLAB_HOME), run alone: no other test reads it meanwhile.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ProcessEnvironment
{
    public const string Name = "process environment";
}

/// <summary>The home a timing run measures with (<see cref="FreshCaches"/>): the user's runtimes, none of the user's caches, nothing left behind.</summary>
[Collection(ProcessEnvironment.Name)]
public sealed class FreshCachesTests
{
    [Fact]
    public void A_timing_home_shares_the_runtimes_starts_and_restarts_with_empty_caches_and_leaves_nothing_behind()
    {
        using var folder = new TempFolder();
        var user = new PerfLabHome(folder.Path);
        Directory.CreateDirectory(user.DotnetRoot);
        File.WriteAllText(Path.Combine(user.DotnetRoot, "dotnet"), "x");
        Directory.CreateDirectory(Path.Combine(user.ReadyToRunHosts, "net8.0-8.0.31-key"));
        Directory.CreateDirectory(user.ResultsCache);
        File.WriteAllText(Path.Combine(user.ResultsCache, "cached.json"), "{}");
        var before = Environment.GetEnvironmentVariable("PERFLAB_HOME");

        string root;
        using (var caches = FreshCaches.Create(user))
        {
            root = caches.Root;
            var home = PerfLabHome.Default();
            Assert.Equal(root, home.Root);
            Assert.True(File.Exists(Path.Combine(home.DotnetRoot, "dotnet")), "the timing home does not see the user's runtimes");
            Assert.True(Directory.Exists(Path.Combine(home.ReadyToRunHosts, "net8.0-8.0.31-key")), "the timing home does not see the user's precompiled hosts: each notebook's time would include making them");
            Assert.False(Directory.Exists(home.ResultsCache), "the timing home sees the user's cached results");

            Directory.CreateDirectory(home.ResultsCache);
            File.WriteAllText(Path.Combine(home.ResultsCache, "first-notebook.json"), "{}");
            Directory.CreateDirectory(home.Builds);
            caches.Empty();

            Assert.False(Directory.Exists(home.ResultsCache), "the next notebook would see the first one's cached results");
            Assert.False(Directory.Exists(home.Builds), "the next notebook would see the first one's builds");
            Assert.True(File.Exists(Path.Combine(home.DotnetRoot, "dotnet")), "emptying the caches removed the runtimes");
            Assert.True(Directory.Exists(Path.Combine(home.ReadyToRunHosts, "net8.0-8.0.31-key")), "emptying the caches removed the precompiled hosts");
        }

        Assert.Equal(before, Environment.GetEnvironmentVariable("PERFLAB_HOME"));
        Assert.False(Directory.Exists(root), "the timing home is left behind");
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "timing")), "the timing folder is left behind");
        Assert.True(File.Exists(Path.Combine(user.DotnetRoot, "dotnet")), "removing the timing home removed the user's runtimes");
        Assert.True(File.Exists(Path.Combine(user.ResultsCache, "cached.json")), "the timing run removed the user's cached results");
    }
}
