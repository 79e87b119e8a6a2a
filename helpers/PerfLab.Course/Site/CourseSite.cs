using System.Globalization;
using System.Runtime.Intrinsics.X86;
using System.Text.RegularExpressions;
using PerfLab.Course.Site.Pages;
using PerfLab.Disassembly;
using PerfLab.Files;
using PerfLab.Notebooks;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Views;
using PerfLab.Results;
using PerfLab.Views.Html;

namespace PerfLab.Course.Site;

/// <summary>What <see cref="CourseSite.BuildAsync"/> wrote.</summary>
/// <param name="Folder">The site's folder.</param>
/// <param name="Pages">Every page written, relative to the folder.</param>
/// <param name="Answered">Benchmark calls answered from the reference file.</param>
/// <param name="Missing">Benchmark calls the reference file has no run of (each page says so).</param>
/// <param name="Stale">Runs of a notebook in the reference file whose code that notebook no longer asks for (the cell changed, went, or moved to another notebook).</param>
/// <param name="Problems">Cells that failed for another reason: the site is incomplete.</param>
/// <param name="RoomNoted">With a room's export: the benchmark calls whose code the room ran (each has a note with the laptops' ratios).</param>
public sealed record SiteResult(string Folder, IReadOnlyList<string> Pages, int Answered, IReadOnlyList<string> Missing, IReadOnlyList<string> Stale, IReadOnlyList<string> Problems, int RoomNoted = 0);

/// <summary>
/// <c>perflab site</c>: every notebook of the index as one page of a static site a reader can open before they
/// run anything. Benchmark cells are answered from the committed reference file by the content key of their code
/// (<see cref="NotebookReplay"/>): a cell whose code the reference run did not measure says so in one line and
/// shows no numbers. Every other cell runs as in <c>perflab run</c>, so the listings are this machine's (its CPU
/// is named on every page). Exercise cells are shown, not run, with a link to their solution. One stylesheet and
/// one copy of plotly.js serve every page; no page fetches anything from the network.
/// </summary>
public static partial class CourseSite
{
    /// <summary>The folder of the shared files, relative to the site's root.</summary>
    public const string Assets = "assets";

    private const string StyleFile = Assets + "/site.css";
    private const string PlotlyFile = PlotlyAsset.AssetPath;

    /// <summary>Builds the site into <paramref name="outFolder"/> (created; earlier pages replaced).</summary>
    /// <param name="outFolder">Where the site goes.</param>
    /// <param name="repository">GitHub owner/name for the Codespaces link and links to files outside the site, or null (those links keep their words only).</param>
    /// <param name="machineFile">The reference file whose runs answer the benchmark cells; null: the one file in data/reference/machines.</param>
    /// <param name="log">Receives progress lines.</param>
    /// <param name="cancellationToken">Stops the running cell and its processes.</param>
    /// <param name="roomFile">A room's export (`perflab room export`): each benchmark cell the room ran gets a note with its laptops' ratios; null: none.</param>
    /// <exception cref="PerfLabException">The index, a notebook, the reference file or the room's export cannot be read, or the repository name is malformed.</exception>
    public static async Task<SiteResult> BuildAsync(string outFolder, string? repository, string? machineFile, Action<string> log, CancellationToken cancellationToken, string? roomFile = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(outFolder);
        ArgumentNullException.ThrowIfNull(log);
        if (repository is not null && !RepositoryName().IsMatch(repository))
        {
            throw new PerfLabException($"--repository {repository} is not a GitHub owner/name.", "Give it as OWNER/NAME, e.g. --repository my-org/perflab, or leave it out.");
        }

        var repo = CourseRepository.Root();
        var notebooksFolder = CourseRepository.PathOf(CourseRepository.NotebooksFolder, repo);
        var catalog = SiteCatalog.Read(Path.Combine(notebooksFolder, "README.md"));
        var file = machineFile ?? OnlyMachineFile(repo);
        if (!File.Exists(file))
        {
            throw new PerfLabException($"Reference file not found: {file}.", "Give an existing data/reference/machines/NAME.json with --machine.");
        }

        // The reference file and the room's export are read before anything is built.
        var referenceDocument = ReferenceDocument.Read(file);
        var runs = referenceDocument.Runs;
        var room = SiteRoom.Read(roomFile);
        var reference = ReferenceFacts.Of(referenceDocument, file);
        var byCode = new Dictionary<string, BenchmarkRun>(StringComparer.Ordinal);
        foreach (var recorded in runs)
        {
            if (recorded.Code is not null)
            {
                byCode[recorded.Code] = recorded.Run;
            }
        }

        var root = Path.GetFullPath(outFolder);
        Directory.CreateDirectory(Path.Combine(root, Assets));
        var site = new SitePages(root, repository, catalog, reference, await ListingMachineAsync(cancellationToken).ConfigureAwait(false));
        var pages = new List<string>();
        await WriteAsync(root, StyleFile, NotebookReport.Stylesheet + SitePages.Style, pages, cancellationToken).ConfigureAwait(false);
        await WriteAsync(root, PlotlyFile, PlotlyAsset.File(), pages, cancellationToken).ConfigureAwait(false);

        var answered = 0;
        var missing = new List<string>();
        var asked = new HashSet<(string Suite, string Code)>();
        var problems = new List<string>();
        foreach (var (notebook, index) in catalog.Select((n, i) => (n, i)))
        {
            log($"▶ {notebook.Path} ({index + 1} of {catalog.Count})");
            var path = Path.Combine(notebooksFolder, notebook.Path);
            var document = NotebookDocument.Load(path);
            var exercises = ExerciseSections.CodeCells(document);
            var replayed = await NotebookReplay.RunAsync(path, code => byCode.GetValueOrDefault(code), exercises, line => log("  " + line), cancellationToken).ConfigureAwait(false);

            var notes = new CellNotes();
            foreach (var call in replayed.Calls)
            {
                asked.Add((CourseRepository.NotebooksFolder + "/" + notebook.Path, call.Code));
                if (call.Found is { } run)
                {
                    answered++;
                    notes.Reference(call.Cell, new ReferenceResultNote(run.StartedAt, run.Mode));
                }
                else
                {
                    missing.Add($"{notebook.Path}, cell {call.Cell + 1} ({call.Type})");
                    notes.Set(call.Cell, new MissingResultNote(call.Type), hide: true);
                }

                if (room?.Note(call.Code) is { } roomNote)
                {
                    notes.AddRoom(call.Cell, roomNote);
                }
            }

            var firstMissing = replayed.Calls.Where(c => c.Found is null).Select(c => c.Cell).DefaultIfEmpty(int.MaxValue).Min();
            foreach (var cell in replayed.Run.Cells.Where(c => c.Failed))
            {
                if (cell.Cell.Index > firstMissing)
                {
                    // It reads a run this page does not have (a break-even chart, an exercise's check): a note, not a failure.
                    notes.Set(cell.Cell.Index, new UsesMissingNote(firstMissing), hide: true);
                    continue;
                }

                var error = cell.Outputs.OfType<ErrorOutput>().FirstOrDefault();
                problems.Add($"{notebook.Path}, {cell.Cell.Name}: {error?.Message ?? "the cell failed"}");
            }

            foreach (var cell in exercises)
            {
                notes.Set(cell, cell == exercises.Min() ? new ExerciseNote(SolutionPage(notebook), notebook.Solution) : new ExerciseCheckNote());
            }

            var frame = new SiteFrame(
                site.Relative(notebook.Page, StyleFile),
                site.Relative(notebook.Page, PlotlyFile),
                site.Header(notebook, index),
                site.Footer(notebook.Page),
                site.Notes(notebook.Page, notes),
                notes.Hidden,
                link => site.Link(notebook.Page, Path.GetDirectoryName(notebook.Path)!.Replace('\\', '/'), link));
            await WriteAsync(root, notebook.Page, NotebookReport.Page(replayed.Run, frame), pages, cancellationToken).ConfigureAwait(false);
        }

        foreach (var notebook in catalog)
        {
            var solution = Path.Combine(CourseRepository.PathOf(CourseRepository.SolutionsFolder, repo), notebook.Solution);
            if (File.Exists(solution))
            {
                var page = SolutionPage(notebook);
                await WriteAsync(root, page, site.SolutionPage(notebook, page, await File.ReadAllTextAsync(solution, cancellationToken).ConfigureAwait(false)), pages, cancellationToken).ConfigureAwait(false);
            }
        }

        var readme = await File.ReadAllTextAsync(Path.Combine(notebooksFolder, "README.md"), cancellationToken).ConfigureAwait(false);
        await WriteAsync(root, "index.html", site.IndexPage(readme), pages, cancellationToken).ConfigureAwait(false);
        // Only notebooks' runs (the suite files in data/reference/suite are not pages), each filed under the notebook that asks for it.
        var stale = runs.Where(r => r.Suite.StartsWith(CourseRepository.NotebooksFolder + "/", StringComparison.Ordinal) && (r.Code is null || !asked.Contains((r.Suite, r.Code))))
            .Select(r => $"{r.Suite}: {string.Join(", ", r.Run.Results.Select(x => x.Type).Distinct())} (run of {r.Run.StartedAt:yyyy-MM-dd HH:mm}, code {r.Code?[..Math.Min(12, r.Code.Length)] ?? "none"})")
            .ToArray();
        return new SiteResult(root, pages, answered, missing, stale, problems, room?.Noted ?? 0);
    }

    private static string SolutionPage(SiteNotebook notebook) => "solutions/" + Path.ChangeExtension(notebook.Solution, ".html");

    private static string OnlyMachineFile(string repo)
    {
        var folder = CourseRepository.PathOf(CourseRepository.ReferenceMachinesFolder, repo);
        var files = Directory.Exists(folder) ? Directory.GetFiles(folder, "*.json").Order(StringComparer.Ordinal).ToArray() : [];
        return files.Length switch
        {
            1 => files[0],
            0 => throw new PerfLabException($"No reference file in {folder}: the site's benchmark cells are answered from one.", "Restore data/reference/machines from git, or write one with `perflab reference`."),
            _ => throw new PerfLabException($"{files.Length} reference files in {folder}: {string.Join(", ", files.Select(Path.GetFileName))}.", "Name the one whose results the site shows: --machine FILE."),
        };
    }

    // The machine that captures the listings: the one building the site, with the instruction sets its listings show.
    private static async Task<string> ListingMachineAsync(CancellationToken cancellationToken)
    {
        var features = InstructionSetProbe.OfThisProcess().Rows
            .Where(r => !r.IsCount && r.Values[0] != 0)
            .Select(r => r.Feature.Split(" (")[0])
            .Where(ListedFeatures.Contains)
            .ToList();
        if (Avx10v1.IsSupported)
        {
            // The probe cannot ask it: it compiles on .NET 8 too, which has no Avx10v1 (x64 only, so it follows AVX-512VBMI).
            features.Add("AVX10.1");
        }

        var processor = await MachineDescription.ProcessorAsync(cancellationToken).ConfigureAwait(false);
        return MachineDescription.Describe(processor, Environment.ProcessorCount, $"{System.Runtime.InteropServices.RuntimeInformation.RuntimeIdentifier}; {(features.Count == 0 ? "no vector extensions beyond the baseline" : string.Join(", ", features))}");
    }

    // The probe's features the header names, by the first word of their labels.
    private static readonly HashSet<string> ListedFeatures = new(["AVX2", "BMI2", "AVX-512F", "AVX-512BW", "AVX-512VBMI", "AdvSimd"], StringComparer.Ordinal);

    private static async Task WriteAsync(string root, string page, string content, List<string> pages, CancellationToken cancellationToken)
    {
        var target = Path.Combine(root, page.Replace('/', Path.DirectorySeparatorChar));
        Directory.CreateDirectory(Path.GetDirectoryName(target)!);
        await AtomicFile.WriteAllTextAsync(target, content, cancellationToken).ConfigureAwait(false);
        pages.Add(page);
    }

    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$")]
    private static partial Regex RepositoryName();
}

/// <summary>The reference file's facts a page names: the machine, the mode, when, and the runtimes' versions.</summary>
internal sealed record ReferenceFacts(string File, string Machine, string Mode, string When, string Runtimes)
{
    public static ReferenceFacts Of(ReferenceDocument document, string file)
    {
        var runs = document.Runs.Select(r => r.Run).ToArray();
        var versions = runs.SelectMany(r => r.Runtimes)
            .Select(r => (Version: Version.TryParse(r.Version, out var v) ? v : new Version(), Name: r.FrameworkDescription))
            .Where(r => r.Name is not null).DistinctBy(r => r.Name).OrderBy(r => r.Version).Select(r => r.Name);
        var dates = runs.Select(r => r.StartedAt.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture)).Order(StringComparer.Ordinal).ToArray();
        return new ReferenceFacts(
            Path.GetFullPath(file),
            // One processor: the machine's; several: each with how many runs it made.
            document.Machine.Describe(document.Machine.Os, document.Processors is { Count: > 1 } several ? string.Join(" and ", several.Select(p => $"{p.Processor} ({p.Runs} {(p.Runs == 1 ? "run" : "runs")})")) : null),
            document.Mode,
            dates.Length == 0 ? "?" : dates[0] == dates[^1] ? dates[0] : $"{dates[0]} to {dates[^1]}",
            string.Join(", ", versions));
    }
}
