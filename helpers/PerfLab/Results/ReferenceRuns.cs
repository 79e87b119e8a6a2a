namespace PerfLab.Results;

/// <summary>A reference machine's measurement of what a published figure compares.</summary>
/// <param name="Machine">The machine's name (its results file).</param>
/// <param name="Description">Processor, cores and mode, for the reader.</param>
/// <param name="Before">Mean of the older runtime (or the baseline method), ns.</param>
/// <param name="After">Mean of the newer runtime (or the new method), ns.</param>
/// <param name="BeforeLabel">The older runtime or baseline method.</param>
/// <param name="AfterLabel">The newer runtime or method.</param>
/// <param name="Interval">The 95% interval of <see cref="Ratio"/>: across the processes that measured each side when both had two or more
/// (<see cref="IntervalKind.Launches"/>, a reference job run with <c>--launches N</c>), else from each side's iterations in its one process
/// (<see cref="IntervalKind.Iterations"/>); null when a side has fewer than two such values or one not above zero.</param>
/// <param name="Processes">The processes behind <see cref="Interval"/> on the side with fewer: 1 when it is from iterations.</param>
public sealed record ReferenceMeasurement(string Machine, string Description, double Before, double After, string BeforeLabel, string AfterLabel, RatioInterval? Interval, int Processes = 1)
{
    /// <summary>After / Before.</summary>
    public double Ratio => After / Before;
}

/// <summary>
/// The course's reference runs (data/reference/machines, written by <c>perflab reference</c> and copied
/// next to the library), read back so every result that names a published figure can show the post's
/// ratio, the reference machines' and the reader's side by side. A file of another schema is reported
/// (<see cref="Problems"/>) and skipped. Each file is read by <see cref="ReferenceDocument.Read(string, string?)"/>.
/// </summary>
public static class ReferenceRuns
{
    private static readonly Lazy<(IReadOnlyList<Machine> Machines, IReadOnlyList<string> Problems)> Shipped =
        new(() => Load(Path.Combine(AppContext.BaseDirectory, "data", "reference", "machines")));

    /// <summary>One machine's file: its description and every result row that names a figure.</summary>
    /// <param name="Name">The machine's name.</param>
    /// <param name="Description">Processor (the one most of its runs had), cores and mode.</param>
    /// <param name="Rows">Every result row that names a figure, and every baseline.</param>
    public sealed record Machine(string Name, string Description, IReadOnlyList<MachineRow> Rows)
    {
        /// <summary>
        /// The machine of a reference document (a data/reference/machines file, or one machine of a room's export): its
        /// description and every result row that names a figure, and every baseline.
        /// </summary>
        /// <param name="document">The document.</param>
        /// <param name="name">The name when the document's machine has none (its file's name).</param>
        public static Machine Of(ReferenceDocument document, string name)
        {
            ArgumentNullException.ThrowIfNull(document);
            var mode = document.Mode + " mode";
            // The file's machine is the one that last wrote it; runs that recorded a processor say which ran them. The
            // machine is described by the processor most of its runs had, and rows of another carry their own.
            var usual = document.Processors is [var most, ..] ? most.Processor : document.Machine.Processor;
            var rows = new List<MachineRow>();
            foreach (var recorded in document.Runs)
            {
                foreach (var result in recorded.Run.Results)
                {
                    // Rows naming a figure, and every baseline: an old-vs-new figure's baseline method need not name it.
                    var id = result.Published?.Id;
                    if ((id is not null || result.IsBaseline) && result.Statistics is { Mean: var mean })
                    {
                        rows.Add(new MachineRow(id ?? "", result.Published?.After?.Method, result.Method, result.Runtime, result.Type, result.IsBaseline, mean, recorded.Code,
                            result.MeasurementsNs, result.LaunchMeansNs ?? [], document.Machine.Describe(mode, recorded.Run.Machine.Processor)));
                    }
                }
            }

            return new Machine(document.Machine.Name is { Length: > 0 } named ? named : name, document.Machine.Describe(mode, usual), rows);
        }
    }

    /// <summary>One result row of a machine's file.</summary>
    /// <param name="Figure">The figure id, "" for a baseline that names none.</param>
    /// <param name="Row">The post's method it reproduces, or null when no row of the figure matched it (it then reproduces none).</param>
    /// <param name="Method">The method.</param>
    /// <param name="Runtime">The runtime.</param>
    /// <param name="Type">The benchmark class.</param>
    /// <param name="IsBaseline">Whether it is its class's baseline method.</param>
    /// <param name="MeanNs">Its mean, ns.</param>
    /// <param name="Code">The content key of the run's code, or null.</param>
    /// <param name="MeasurementsNs">Its iterations, ns per operation, over every process that measured it.</param>
    /// <param name="LaunchMeansNs">Each process's mean, ns per operation: one per process, none in a file written before launches.</param>
    /// <param name="Description">Processor, cores and mode of the run that measured it: the machine's, with the run's own processor
    /// where the run recorded one (a file's runs can come from more than one processor of the same name's machine).</param>
    public sealed record MachineRow(string Figure, string? Row, string Method, string Runtime, string Type, bool IsBaseline, double MeanNs, string? Code, IReadOnlyList<double> MeasurementsNs, IReadOnlyList<double> LaunchMeansNs, string Description);

    /// <summary>Problems with the shipped files.</summary>
    public static IReadOnlyList<string> Problems => Shipped.Value.Problems;

    /// <summary>Every reference machine's measurement of what <paramref name="published"/> compares.</summary>
    /// <param name="published">The published comparison a case reproduces.</param>
    /// <param name="code">The content key of the code the case ran (<see cref="BenchmarkRun.Code"/>): only runs of that code count, so a changed cell is never shown its old code's numbers; null: any run of the figure (the fidelity report).</param>
    public static IReadOnlyList<ReferenceMeasurement> For(PublishedComparison published, string? code = null) => For(Shipped.Value.Machines, published, code);

    /// <summary><see cref="For(PublishedComparison, string?)"/> over given machines.</summary>
    /// <param name="machines">The machines.</param>
    /// <param name="published">The published comparison.</param>
    /// <param name="code">Only runs of this code; null: any.</param>
    public static IReadOnlyList<ReferenceMeasurement> For(IReadOnlyList<Machine> machines, PublishedComparison published, string? code = null)
    {
        ArgumentNullException.ThrowIfNull(machines);
        ArgumentNullException.ThrowIfNull(published);
        if (published is not { Before: { } before, After: { } after })
        {
            return [];
        }

        var found = new List<ReferenceMeasurement>();
        foreach (var machine in machines)
        {
            var rows = machine.Rows.Where(r => r.Figure == published.Id && r.Row == after.Method && (code is null || r.Code == code)).ToArray();
            if (published.Kind == "runtimes")
            {
                var old = rows.FirstOrDefault(r => r.Runtime == before.Runtime);
                var recent = rows.FirstOrDefault(r => r.Runtime == after.Runtime && r.Method == old?.Method);
                if (old is not null && recent is not null && old.MeanNs > 0)
                {
                    found.Add(Measurement(machine, old, recent, before.Runtime, after.Runtime));
                }
            }
            else
            {
                // Old idiom against new: the new method's row over its class's baseline, on the post's runtime when
                // the run measured it (another runtime's ratio can differ: N9-S03 is slower than its baseline on
                // .NET 9 and faster on .NET 10), else on the newest runtime measured.
                var measured = rows.Where(r => !r.IsBaseline).ToArray();
                var recent = measured.Any(r => r.Runtime == after.Runtime)
                    ? measured.Last(r => r.Runtime == after.Runtime)
                    : measured.LastOrDefault();
                var baseline = recent is null ? null : machine.Rows.FirstOrDefault(r => r.Type == recent.Type && r.IsBaseline && r.Runtime == recent.Runtime && r.Code == recent.Code);
                if (recent is not null && baseline is not null && baseline.MeanNs > 0)
                {
                    found.Add(Measurement(machine, baseline, recent, before.Method, after.Method));
                }
            }
        }

        return found;
    }

    private static ReferenceMeasurement Measurement(Machine machine, MachineRow before, MachineRow after, string beforeLabel, string afterLabel)
    {
        var interval = RatioInterval.FromLaunchesOrIterations(after.MeanNs / before.MeanNs, after.LaunchMeansNs, before.LaunchMeansNs, after.MeasurementsNs, before.MeasurementsNs);
        var processes = interval is { Kind: IntervalKind.Launches } ? Math.Min(after.LaunchMeansNs.Count, before.LaunchMeansNs.Count) : 1;
        return new(machine.Name, after.Description, before.MeanNs, after.MeanNs, beforeLabel, afterLabel, interval, processes);
    }

    /// <summary>Reads every machine file in <paramref name="folder"/>.</summary>
    /// <param name="folder">data/reference/machines.</param>
    public static (IReadOnlyList<Machine> Machines, IReadOnlyList<string> Problems) Load(string folder)
    {
        var machines = new List<Machine>();
        var problems = new List<string>();
        if (!Directory.Exists(folder))
        {
            return (machines, problems);
        }

        foreach (var file in Directory.EnumerateFiles(folder, "*.json").Order(StringComparer.Ordinal))
        {
            try
            {
                machines.Add(Machine.Of(ReferenceDocument.Read(file, "data/reference/machines/" + Path.GetFileName(file)), Path.GetFileNameWithoutExtension(file)));
            }
            catch (PerfLabException ex)
            {
                problems.Add($"{ex.Message} {ex.Fix}");
            }
        }

        return (machines, problems);
    }
}
