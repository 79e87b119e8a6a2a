using PerfLab.Contract;
using PerfLab.Results;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>Host results built by hand, for tests of pure result logic (no process involved). A copy of PerfLab.Tests' Fake.</summary>
public static class Fake
{
    public static HostRuntime Runtime(string version) => new(version, ".NET " + version, "Linux", "X64", 2, false, null);

    public static HostResult Case(string method, double meanNs, long allocated, bool baseline = false, string? error = null, int n = 7, double errorNs = 1, string? category = null, params CaseParameter[] parameters)
    {
        var info = new CaseInfo(0, "Demo.Bench", method, parameters, baseline, category is null ? null : [category]);
        var stats = error is null ? new CaseStatistics(meanNs, errorNs, errorNs / 2, meanNs, meanNs * 0.9, meanNs * 1.1, n) : null;
        return new HostResult(HostProtocol.Version, Runtime("?"), [info], info, stats, error is null ? [meanNs] : null, error is null ? allocated : null, null, null, null, 1000, [], error);
    }

    public static RuntimeOutcome Outcome(string moniker, string version, params HostResult[] cases) =>
        new(moniker, "installed", Runtime(version), cases, Cached: false);

    public static BenchmarkRun Run(BenchmarkMode mode, params RuntimeOutcome[] outcomes) =>
        ResultBuilder.Build("/src/demo.cs", mode, new DateTimeOffset(2026, 11, 23, 9, 0, 0, TimeSpan.Zero), new Dictionary<string, string>(), [], outcomes, new RunTiming(1, 0.1, 0, 0, 0.8));
}
