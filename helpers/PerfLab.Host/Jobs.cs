using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using PerfLab.Contract;
using Perfolizer.Horology;

namespace PerfLab.Host;

/// <summary>The BenchmarkDotNet job of each mode. All run in-process: this process is the clean one.</summary>
internal static class Jobs
{
    /// <summary>Iteration time of quick mode: short enough for seconds per case, long enough for Tier1 code.</summary>
    public static readonly TimeInterval QuickIterationTime = TimeInterval.FromMilliseconds(50);

    public static Job For(BenchmarkMode mode)
    {
        // Instance logs the benchmark's output, which is the only place an exception's text appears.
        var job = mode switch
        {
            BenchmarkMode.Smoke => Job.Dry,
            BenchmarkMode.Quick => Job.Default.WithWarmupCount(3).WithIterationCount(7).WithIterationTime(QuickIterationTime),
            BenchmarkMode.Full => Job.Default,
            _ => throw new ArgumentOutOfRangeException(nameof(mode), mode, null),
        };
        return job.WithToolchain(InProcessEmitToolchain.Instance).WithId(mode.ToString());
    }
}
