using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Environments;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using PerfLab.Contract;
using Perfolizer.Horology;

namespace PerfLab.Host;

/// <summary>The BenchmarkDotNet job of each mode. All run in-process: this process is the clean one.</summary>
/// <remarks>Quick mode's numbers are in the contract (<see cref="QuickJob"/>): PerfLab describes the mode from them.</remarks>
internal static class Jobs
{
    /// <param name="mode">The mode.</param>
    /// <param name="iterations">An earlier launch's iteration shape: given, BenchmarkDotNet runs it without a pilot stage.</param>
    /// <param name="launches">The case's launches on this runtime: a quick run of one gets the single-process job.</param>
    public static Job For(BenchmarkMode mode, IterationShape? iterations, int launches)
    {
        // Instance logs the benchmark's output, which is the only place an exception's text appears.
        var job = mode switch
        {
            BenchmarkMode.Smoke => Job.Dry,
            // Min and MaxIterationCount bound only the overhead stage here: the workload's iteration count is fixed.
            // One launch reads bytes per call and keeps the longer single-process job (QuickJob.SingleLaunchWarmupCount).
            BenchmarkMode.Quick => Job.Default
                .WithWarmupCount(launches == 1 ? QuickJob.SingleLaunchWarmupCount : QuickJob.WarmupCount)
                .WithIterationCount(launches == 1 ? QuickJob.SingleLaunchIterationCount : QuickJob.IterationCount)
                .WithIterationTime(TimeInterval.FromMilliseconds(QuickJob.IterationMilliseconds))
                .WithMinIterationCount(QuickJob.OverheadMinIterationCount).WithMaxIterationCount(QuickJob.OverheadMaxIterationCount),
            BenchmarkMode.Full => Job.Default,
            _ => throw new ArgumentOutOfRangeException(nameof(mode), mode, null),
        };
        if (iterations is not null)
        {
            job = job.WithInvocationCount(iterations.InvocationCount).WithUnrollFactor(iterations.UnrollFactor);
        }

        return job.WithToolchain(InProcessEmitToolchain.Instance).WithId(mode.ToString());
    }

    /// <summary>
    /// The iteration shape a measured case ran with: its invocation count from the measurements, and the unroll factor
    /// BenchmarkDotNet pairs with it (its default when the count is a multiple of it, else 1, as for a slow case).
    /// </summary>
    /// <param name="report">The case's report.</param>
    public static IterationShape? ShapeOf(BenchmarkReport report)
    {
        var measured = report.AllMeasurements.FirstOrDefault(m => m.Is(IterationMode.Workload, IterationStage.Actual));
        if (measured.Operations <= 0)
        {
            return null;
        }

        var invocations = measured.Operations / report.BenchmarkCase.Descriptor.OperationsPerInvoke;
        var unroll = Job.Default.ResolveValue(RunMode.UnrollFactorCharacteristic, EnvironmentResolver.Instance);
        return new IterationShape(invocations, invocations % unroll == 0 ? unroll : 1);
    }
}
