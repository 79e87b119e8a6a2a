using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using PerfLab.Contract;
using Perfolizer.Horology;

namespace PerfLab.Host;

/// <summary>The BenchmarkDotNet job of each mode. All run in-process: this process is the clean one.</summary>
/// <remarks>Quick mode's numbers are in the contract (<see cref="QuickJob"/>): PerfLab describes the mode from them.</remarks>
internal static class Jobs
{
    public static Job For(BenchmarkMode mode)
    {
        // Instance logs the benchmark's output, which is the only place an exception's text appears.
        var job = mode switch
        {
            BenchmarkMode.Smoke => Job.Dry,
            BenchmarkMode.Quick => Job.Default.WithWarmupCount(QuickJob.WarmupCount).WithIterationCount(QuickJob.IterationCount).WithIterationTime(TimeInterval.FromMilliseconds(QuickJob.IterationMilliseconds)),
            BenchmarkMode.Full => Job.Default,
            _ => throw new ArgumentOutOfRangeException(nameof(mode), mode, null),
        };
        return job.WithToolchain(InProcessEmitToolchain.Instance).WithId(mode.ToString());
    }
}
