using PerfLab.Contract;
using PerfLab.Disassembly;
using PerfLab.Results;
using PerfLab.Room;

namespace PerfLab.Tests.Support;

/// <summary>Host results built by hand, for tests of pure result logic (no process involved).</summary>
public static class Fake
{
    public static HostRuntime Runtime(string version) => new(version, ".NET " + version, "Linux", "X64", 2, false, null);

    public static HostResult Case(string method, double meanNs, long allocated, bool baseline = false, string? error = null, int n = 7, double errorNs = 1, string? category = null, params CaseParameter[] parameters)
    {
        var info = new CaseInfo(0, "Demo.Bench", method, parameters, baseline, category is null ? null : [category]);
        var stats = error is null ? new CaseStatistics(meanNs, errorNs, errorNs / 2, meanNs, meanNs * 0.9, meanNs * 1.1, n) : null;
        return new HostResult(HostProtocol.Version, Runtime("?"), [info], info, stats, error is null ? [meanNs] : null, error is null ? allocated : null, null, null, null, 1000, [], error);
    }

    /// <summary>One launch of a case that measured these iterations (ns per operation), with <paramref name="allocated"/> bytes per operation over <paramref name="operations"/>.</summary>
    public static HostResult Launch(string method, double[] measurementsNs, bool baseline = false, long allocated = 0, long operations = 1000, string? category = null, CaseParameter[]? parameters = null)
    {
        var info = new CaseInfo(0, "Demo.Bench", method, parameters ?? [], baseline, category is null ? null : [category]);
        var mean = measurementsNs.Average();
        var stats = new CaseStatistics(mean, 1, 1, mean, measurementsNs.Min(), measurementsNs.Max(), measurementsNs.Length);
        return new HostResult(HostProtocol.Version, Runtime("?"), [info], info, stats, measurementsNs, allocated, null, null, null, operations, [], null);
    }

    /// <summary>A runtime whose cases each ran in one launch.</summary>
    public static RuntimeOutcome Outcome(string moniker, string version, params HostResult[] cases) =>
        Launched(moniker, version, cases.Select(c => new CaseLaunches([c])).ToArray());

    /// <summary>A runtime whose cases ran in the launches given.</summary>
    public static RuntimeOutcome Launched(string moniker, string version, params CaseLaunches[] cases) =>
        new(moniker, "installed", Runtime(version), cases, Cached: false);

    public static BenchmarkRun Run(BenchmarkMode mode, params RuntimeOutcome[] outcomes) =>
        ResultBuilder.Build("/src/demo.cs", mode, new DateTimeOffset(2026, 11, 23, 9, 0, 0, TimeSpan.Zero), new Dictionary<string, string>(), [], outcomes, new RunTiming(1, 0.1, 0, 0, 0.8));

    /// <summary>A room post of a two-runtime run, as a laptop would send it, with a content key.</summary>
    public static RoomPost Post(string? laptop = null, string nickname = "ana", string? notebook = null, BenchmarkMode mode = BenchmarkMode.Quick, string method = "Sum", double net10Ns = 60, char code = 'c', string processor = "Test CPU")
    {
        var run = Run(mode, Outcome("net8.0", "8.0.31", Case(method, 100, 0)), Outcome("net10.0", "10.0.12", Case(method, net10Ns, 0))) with { Code = new string(code, 64) };
        var machine = new MachineDescription("", "linux-x64", "Linux", processor, 2, 1L << 30, "10.0.100", null);
        return RoomPost.Of(run, laptop ?? RoomPost.NewId(), nickname, notebook, machine, InstructionSetProbe.OfThisProcess());
    }
}
