namespace PerfLab.Benchmarks;

/// <summary>Where a run stands, reported as it goes.</summary>
/// <param name="Stage">compile, cache, provision, wait, measure, round (a round of launches is done) or done; asm for a disassembly's steps that a notebook cell reports beside its benchmarks.</param>
/// <param name="Elapsed">Time since the run started.</param>
/// <param name="Message">A human sentence, for stages without a case.</param>
/// <param name="Runtime">The runtime being measured.</param>
/// <param name="CaseNumber">1-based number of the case being measured.</param>
/// <param name="CaseCount">Cases on this runtime.</param>
/// <param name="CaseName">The case, as Method(params).</param>
/// <param name="Phase">BenchmarkDotNet's stage, e.g. WorkloadWarmup.</param>
/// <param name="Iteration">Iteration within the phase.</param>
/// <param name="Launch">1-based number of the case's process on this runtime (quick mode runs several).</param>
/// <param name="LaunchCount">Processes per case and runtime.</param>
/// <param name="Left">The run's time left, estimated from the launches already run (their mean times the launches still planned); null before the first has run.</param>
/// <param name="Partial">
/// After each round of launches (stage round), the table of everything measured so far, for a frontend that shows
/// the table as it grows; the run's final result is what <see cref="BenchmarkEngine.RunAsync"/> returns.
/// </param>
public sealed record RunProgress(
    string Stage,
    TimeSpan Elapsed,
    string? Message = null,
    string? Runtime = null,
    int? CaseNumber = null,
    int? CaseCount = null,
    string? CaseName = null,
    string? Phase = null,
    int? Iteration = null,
    int? Launch = null,
    int? LaunchCount = null,
    TimeSpan? Left = null,
    Results.BenchmarkRun? Partial = null)
{
    /// <summary>One line, e.g. "[  4.2s] net9.0 case 1/2 launch 2/4 Sum(N=100) WorkloadActual 3, about 12 s left".</summary>
    public override string ToString()
    {
        var clock = $"[{Elapsed.TotalSeconds,6:F1}s]";
        if (Runtime is null)
        {
            return $"{clock} {Message}{LeftText}";
        }

        var where = CaseNumber is null ? "" : $" case {CaseNumber}/{CaseCount?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "?"}";
        where += LaunchCount is > 1 ? $" launch {Launch}/{LaunchCount}" : "";
        var name = CaseName is null ? "" : " " + CaseName;
        var phase = Phase is null ? "" : " " + Phase + (Iteration is null ? "" : " " + Iteration);
        var message = Message is null ? "" : " " + Message;
        return $"{clock} {Runtime}{where}{name}{phase}{message}{LeftText}";
    }

    // Whole seconds, rounded up: "about 0 s left" would be wrong while a launch still runs.
    private string LeftText => Left is { } left ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $", about {Math.Ceiling(left.TotalSeconds):F0} s left") : "";
}
