using System.Globalization;
using PerfLab.Views.Terminal;

namespace PerfLab.Results;

/// <summary>One structure in a <see cref="BreakEven"/>: its name and the benchmark methods that build it and read it.</summary>
/// <param name="Name">As the reader calls it, e.g. "Dictionary".</param>
/// <param name="BuildMethod">The [Benchmark] method that builds one instance.</param>
/// <param name="ReadMethod">The [Benchmark] method that reads it (see <see cref="BreakEven.ReadsPerCall"/>).</param>
public sealed record BreakEvenSide(string Name, string BuildMethod, string ReadMethod);

/// <summary>Both structures' costs on one runtime, in nanoseconds, and where their totals meet.</summary>
/// <param name="Runtime">Moniker, e.g. net10.0.</param>
/// <param name="PlainBuild">Building the plain structure once.</param>
/// <param name="PlainRead">One read of the plain structure.</param>
/// <param name="PreparedBuild">Building the prepared structure once.</param>
/// <param name="PreparedRead">One read of the prepared structure.</param>
public sealed record BreakEvenPoint(string Runtime, double PlainBuild, double PlainRead, double PreparedBuild, double PreparedRead)
{
    /// <summary>
    /// Reads per build from which the prepared structure costs less in total (build + reads): 0 when it is
    /// not dearer to build, null when its reads are no faster, so it never pays back its build.
    /// </summary>
    public double? Reads =>
        PreparedBuild <= PlainBuild ? 0
        : PreparedRead >= PlainRead ? null
        : (PreparedBuild - PlainBuild) / (PlainRead - PreparedRead);

    /// <summary>Total time of one build and <paramref name="reads"/> reads, per read.</summary>
    /// <param name="prepared">The prepared structure, else the plain one.</param>
    /// <param name="reads">Reads per build, at least 1.</param>
    public double CostPerRead(bool prepared, double reads) =>
        prepared ? PreparedBuild / reads + PreparedRead : PlainBuild / reads + PlainRead;
}

/// <summary>
/// When a structure that is dearer to build but cheaper to read (a frozen collection, a compiled regex, a
/// precomputed table) pays off: per runtime, the number of reads per build after which its build plus reads
/// cost less than the plain structure's. Read from four methods of one run.
/// </summary>
/// <param name="Plain">The structure that is cheap to build.</param>
/// <param name="Prepared">The structure that is dear to build and meant to be cheap to read.</param>
/// <param name="ReadsPerCall">How many reads one call of a read method makes (its mean is divided by this).</param>
/// <param name="Points">One per runtime of the run, in the run's order.</param>
/// <param name="Skipped">Runtimes left out and why (a failed or missing method).</param>
[PerfLab.Views.Html.TypeFormatterSource(typeof(PerfLab.Views.Html.NotebookFormatterSource))]
public sealed record BreakEven(BreakEvenSide Plain, BreakEvenSide Prepared, int ReadsPerCall, IReadOnlyList<BreakEvenPoint> Points, IReadOnlyList<string> Skipped)
{
    /// <summary>Computes the break-even points of <paramref name="run"/>.</summary>
    /// <param name="run">A run with the four methods.</param>
    /// <param name="plain">The cheap-to-build structure's methods.</param>
    /// <param name="prepared">The dear-to-build structure's methods.</param>
    /// <param name="readsPerCall">Reads per call of each read method, at least 1.</param>
    /// <exception cref="PerfLabException">A method is not in the run, or no runtime measured all four.</exception>
    public static BreakEven From(BenchmarkRun run, BreakEvenSide plain, BreakEvenSide prepared, int readsPerCall = 1)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(plain);
        ArgumentNullException.ThrowIfNull(prepared);
        if (readsPerCall < 1)
        {
            throw new PerfLabException($"readsPerCall is {readsPerCall}; a read method makes at least one read per call.", "Pass how many lookups one call of the read methods makes.");
        }

        string[] methods = [plain.BuildMethod, plain.ReadMethod, prepared.BuildMethod, prepared.ReadMethod];
        var measured = run.Results.Select(r => r.Method).Distinct().ToArray();
        if (methods.FirstOrDefault(m => !measured.Contains(m, StringComparer.Ordinal)) is { } missing)
        {
            throw new PerfLabException(
                $"The run has no method named {missing}; it measured {string.Join(", ", measured)}.",
                "Name the four [Benchmark] methods of the run: each structure's build and its read.");
        }

        var points = new List<BreakEvenPoint>();
        var skipped = new List<string>();
        foreach (var runtime in run.Runtimes.Select(r => r.Moniker))
        {
            var means = methods.Select(m => run.Results.FirstOrDefault(r => r.Method == m && r.Runtime == runtime && r.Error is null)?.Statistics?.Mean).ToArray();
            if (Array.FindIndex(means, m => m is not > 0) is var failed and >= 0)
            {
                skipped.Add($"{runtime}: {methods[failed]} has no measurement");
                continue;
            }

            points.Add(new BreakEvenPoint(runtime, means[0]!.Value, means[1]!.Value / readsPerCall, means[2]!.Value, means[3]!.Value / readsPerCall));
        }

        if (points.Count == 0)
        {
            throw new PerfLabException(
                $"No runtime measured all four methods ({string.Join("; ", skipped)}).",
                "Fix the failing methods (the run's table shows their errors) and run the cell again.");
        }

        return new BreakEven(plain, prepared, readsPerCall, points, skipped);
    }

    /// <summary>The terminal view: see <see cref="BreakEvenTerminalView"/>.</summary>
    public override string ToString() => BreakEvenTerminalView.Render(this);

    /// <summary>"pays off from 1,234 reads per build", "pays off from the first read" or "never pays off: ...".</summary>
    /// <param name="point">One runtime's point.</param>
    public string Verdict(BreakEvenPoint point)
    {
        ArgumentNullException.ThrowIfNull(point);
        return point.Reads switch
        {
            null => $"never pays off: its reads are no faster than {Plain.Name}'s",
            0 => "pays off from the first read (it is not dearer to build)",
            { } n => $"pays off from {Math.Ceiling(n).ToString("N0", CultureInfo.InvariantCulture)} reads per build",
        };
    }
}
