using PerfLab.Benchmarks;
using PerfLab.Contract;
using PerfLab.Results;
using PerfLab.Runtimes;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Integration;

/// <summary>A run's runtimes say where each runtime is, and a cached part provisions nothing.</summary>
public class CachedRuntimeSourceTests
{
    [Fact]
    public async Task A_cached_part_whose_runtime_is_not_here_says_missing_not_provisioned()
    {
        // A fresh home: a runtime the SDK does not carry is missing there.
        using var folder = new TempFolder();
        var home = new PerfLabHome(folder.Path);
        var locator = new RuntimeLocator(home);
        var absent = RuntimeCatalog.All.FirstOrDefault(r => locator.Locate(r).Source == RuntimeSource.Missing);
        if (absent is null)
        {
            return; // This machine's SDK carries every pinned runtime: none can be missing.
        }

        var request = new BenchmarkRequest { Source = Sources.Tiny(), SourcePath = "Tiny.cs", Runtimes = [absent], Mode = BenchmarkMode.Smoke };
        var hosts = new HostLayout();
        var key = ResultCache.Key(request.Source, request.Mode, request.EffectiveLaunches, request.Filter, request.Environment, absent.Version, hosts.VersionOf(absent), hosts.GeneratorsFor(request.Source, absent));
        new ResultCache(home.ResultsCache).Put(key, Fake.Runtime(absent.Version), [new CaseLaunches([Fake.Case("Sum", 1, 0)])]);

        var run = await new BenchmarkEngine(home).RunAsync(request);

        var runtime = Assert.Single(run.Runtimes);
        Assert.True(runtime.Cached);
        Assert.Equal("missing", runtime.Source);
        Assert.Equal(RuntimeSource.Missing, locator.Locate(absent).Source);
    }
}
