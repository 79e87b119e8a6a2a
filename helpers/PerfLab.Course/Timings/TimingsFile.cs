using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using PerfLab.Contract;
using PerfLab.Course.Reference;
using PerfLab.Files;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Processes;
using PerfLab.Results;

namespace PerfLab.Course.Timings;

/// <summary>How long one code cell of a timed notebook ran.</summary>
/// <param name="Cell">The cell's name, as reports and errors name it ("cell 5", counted among all cells from 1).</param>
/// <param name="Seconds">Its wall time, to a tenth of a second.</param>
public sealed record CellTiming(string Cell, double Seconds);

/// <summary>The machine's load average (1, 5 and 15 minutes) when a notebook's run started and when it ended; null where the OS keeps none.</summary>
/// <param name="Start">At the start.</param>
/// <param name="End">At the end.</param>
public sealed record LoadAverages(IReadOnlyList<double>? Start, IReadOnlyList<double>? End);

/// <summary>One notebook's timing: a run of it top to bottom, `perflab run` with empty caches, in the file's mode.</summary>
/// <param name="Notebook">The notebook, relative to the repository with '/' (notebooks/00-start-here.ipynb).</param>
/// <param name="Code">The content key of its code cells when it ran (<see cref="TimingsFile.ContentKey"/>): a later change of its code makes the timing stale.</param>
/// <param name="Seconds">The whole run's wall time, every cell, to a tenth of a second.</param>
/// <param name="Started">When it started (UTC).</param>
/// <param name="Commit">The repository's commit (git HEAD), or "unknown" outside a git clone.</param>
/// <param name="UncommittedChanges">The clone had changes not committed (git status), so the commit alone does not say what ran.</param>
/// <param name="Machine">The machine it ran on.</param>
/// <param name="Load">The machine's load average at its start and end: a busy machine's times are not a quiet one's.</param>
/// <param name="Cells">Each code cell that ran, in order, with its time.</param>
public sealed record NotebookTiming(
    string Notebook,
    string Code,
    double Seconds,
    DateTimeOffset Started,
    string Commit,
    bool UncommittedChanges,
    MachineDescription Machine,
    LoadAverages Load,
    IReadOnlyList<CellTiming> Cells);

/// <summary>
/// The course's notebook timings (data/timings/quick.json in the repository): how long each notebook takes a reader
/// who runs it once in one mode, measured by <c>perflab run NOTEBOOK|FOLDER --mode quick --timings FILE</c> with empty
/// result, listing and build caches, and quoted by the docs with markers (<c>141 s&lt;!-- timing: notebooks/00-start-here.ipynb --&gt;</c>).
/// One file holds one mode. A run for some notebooks replaces their entries and keeps the others; the file is written
/// (atomically) after each notebook, so a run stopped half way keeps the notebooks it finished.
/// </summary>
public sealed class TimingsFile
{
    /// <summary>The file's schema name.</summary>
    public const string Schema = "perflab-timings/1";

    /// <summary>What the file says about the caches its timings ran with.</summary>
    public const string CachesNote =
        "Each notebook ran with empty result, listing and build caches: a PERFLAB_HOME of the timing run's own, emptied before each notebook, " +
        "sharing only the provisioned runtimes, the precompiled hosts and the locks of the user's home (both already made; a reader's first run after ./setup.sh).";

    private readonly SortedDictionary<string, NotebookTiming> _entries;
    private MachineDescription? _machine;

    private TimingsFile(string path, BenchmarkMode mode, IEnumerable<NotebookTiming> entries)
    {
        Path = path;
        Mode = mode;
        _entries = new SortedDictionary<string, NotebookTiming>(entries.ToDictionary(e => e.Notebook, StringComparer.Ordinal), StringComparer.Ordinal);
    }

    /// <summary>The file's full path.</summary>
    public string Path { get; }

    /// <summary>The mode of every timing in it.</summary>
    public BenchmarkMode Mode { get; }

    /// <summary>Its timings, by notebook path.</summary>
    public IReadOnlyList<NotebookTiming> Notebooks => [.. _entries.Values];

    /// <summary>The content key of a notebook's code: SHA-256 over its code cells' sources, in order, with '\n' line endings. Prose does not change it; any code does.</summary>
    /// <param name="notebook">The notebook as read.</param>
    public static string ContentKey(NotebookDocument notebook)
    {
        ArgumentNullException.ThrowIfNull(notebook);
        var code = notebook.Cells.Where(c => c.Kind == CellKind.Code).Select(c => c.Source.ReplaceLineEndings("\n"));
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(string.Join('\u001f', code))));
    }

    /// <summary>Reads the timings file at <paramref name="path"/>.</summary>
    /// <param name="path">The file.</param>
    /// <exception cref="PerfLabException">It is missing, not JSON, or not this schema.</exception>
    public static TimingsFile Read(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var full = System.IO.Path.GetFullPath(path);
        if (!File.Exists(full))
        {
            throw new PerfLabException($"There is no timings file {full}.", "Time a notebook to make it: perflab run notebooks/00-start-here.ipynb --mode quick --timings " + path);
        }

        Stored? stored;
        try
        {
            stored = JsonSerializer.Deserialize<Stored>(File.ReadAllText(full), Json);
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"{full} is not a timings file: {ex.Message}", "Restore it from git, or give --timings another file.", inner: ex);
        }

        if (stored?.Schema != Schema || stored.Notebooks is null || !ModeChoice.Names.Contains(stored.Mode ?? ""))
        {
            throw new PerfLabException($"{full} is schema {stored?.Schema ?? "(none)"}, not {Schema} with a mode and notebooks.", "Restore it from git, or give --timings another file.");
        }

        return new TimingsFile(full, ModeChoice.Parse(stored.Mode!, "mode"), stored.Notebooks);
    }

    /// <summary>
    /// The file a timing run in <paramref name="mode"/> writes: the existing one, read now (it must be a timings file
    /// of the same mode), or a new one. Checked before anything runs: the folder must be writable.
    /// </summary>
    /// <param name="path">The file (--timings).</param>
    /// <param name="mode">The run's mode.</param>
    /// <exception cref="PerfLabException">The path is a folder or cannot be written, or the file is not a timings file of this mode.</exception>
    public static TimingsFile Open(string path, BenchmarkMode mode)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var full = System.IO.Path.GetFullPath(path);
        if (Directory.Exists(full))
        {
            throw new PerfLabException($"--timings {path} is a folder.", "Give the timings file's path, e.g. --timings data/timings/quick.json.");
        }

        try
        {
            Directory.CreateDirectory(System.IO.Path.GetDirectoryName(full)!);
            using var probe = new FileStream(System.IO.Path.Combine(System.IO.Path.GetDirectoryName(full)!, $".{System.IO.Path.GetFileName(full)}.{Environment.ProcessId}.probe"), FileMode.Create, FileAccess.Write, FileShare.None, 1, FileOptions.DeleteOnClose);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new PerfLabException($"--timings {path}: cannot write there ({ex.Message}).", "Give a path in a folder you can write to.", inner: ex);
        }

        if (!File.Exists(full))
        {
            return new TimingsFile(full, mode, []);
        }

        var existing = Read(full);
        if (existing.Mode != mode)
        {
            throw new PerfLabException(
                $"--timings {path} holds {ModeChoice.Name(existing.Mode)}-mode timings; this run is in {ModeChoice.Name(mode)} mode.",
                $"A file holds one mode: run with --mode {ModeChoice.Name(existing.Mode)}, or give another file.");
        }

        return existing;
    }

    /// <summary>The timing of <paramref name="notebook"/> (relative to the repository, '/'), or null when it has none.</summary>
    /// <param name="notebook">E.g. notebooks/00-start-here.ipynb.</param>
    public NotebookTiming? Of(string notebook) => _entries.GetValueOrDefault(notebook);

    /// <summary>Records <paramref name="run"/> as <paramref name="notebook"/>'s timing, replacing any it had, and writes the file.</summary>
    /// <param name="notebook">The notebook, relative to the repository with '/'.</param>
    /// <param name="run">Its run, which must have succeeded: a failed run's time is not the notebook's.</param>
    /// <param name="load">The load average when the run started and now.</param>
    /// <param name="source">The repository's state when the run started (<see cref="SourceAsync"/>).</param>
    /// <param name="cancellationToken">Stops the machine's description and the write (the file is then left as it was).</param>
    /// <returns>The timing recorded.</returns>
    public async Task<NotebookTiming> RecordAsync(string notebook, NotebookRun run, LoadAverages load, (string Commit, bool UncommittedChanges) source, CancellationToken cancellationToken)
    {
        _machine ??= await MachineDescription.DescribeAsync(ReferenceJob.MachineName(null), CourseRepository.Root(), cancellationToken).ConfigureAwait(false);
        var timing = Timing(notebook, run, load, source.Commit, source.UncommittedChanges, _machine);
        Record(timing);
        await WriteAsync(cancellationToken).ConfigureAwait(false);
        return timing;
    }

    /// <summary>The timing of a run of <paramref name="notebook"/>: its total, each executed code cell's time, and its code's content key.</summary>
    /// <param name="notebook">The notebook, relative to the repository with '/'.</param>
    /// <param name="run">Its run, which must have succeeded: a failed run's time is not the notebook's.</param>
    /// <param name="load">The load average when the run started and when it ended.</param>
    /// <param name="commit">The repository's commit.</param>
    /// <param name="uncommittedChanges">The clone had changes besides the timings file.</param>
    /// <param name="machine">The machine.</param>
    public static NotebookTiming Timing(string notebook, NotebookRun run, LoadAverages load, string commit, bool uncommittedChanges, MachineDescription machine)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(notebook);
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(load);
        ArgumentNullException.ThrowIfNull(machine);
        if (!run.Succeeded)
        {
            throw new ArgumentException("A failed run is not a timing.", nameof(run));
        }

        return new NotebookTiming(
            notebook,
            ContentKey(run.Notebook),
            Tenths(run.Duration),
            Whole(run.StartedAt),
            commit,
            uncommittedChanges,
            machine,
            load,
            [.. run.Cells.Where(c => c.ExecutionCount is not null).Select(c => new CellTiming(c.Cell.Name, Tenths(c.Duration)))]);
    }

    /// <summary>Makes <paramref name="timing"/> its notebook's entry, replacing the one it had; the others stay. Nothing is written yet.</summary>
    /// <param name="timing">The new timing.</param>
    public void Record(NotebookTiming timing)
    {
        ArgumentNullException.ThrowIfNull(timing);
        _entries[timing.Notebook] = timing;
    }

    /// <summary>Writes the file, atomically: every entry, in path order.</summary>
    /// <param name="cancellationToken">Stops the write (the file is then left as it was).</param>
    public Task WriteAsync(CancellationToken cancellationToken) =>
        AtomicFile.WriteAllTextAsync(Path, JsonSerializer.Serialize(new Stored(Schema, ModeChoice.Name(Mode), CachesNote, Notebooks), Json) + "\n", cancellationToken);

    private static DateTimeOffset Whole(DateTimeOffset time) =>
        new DateTimeOffset(time.UtcTicks - (time.UtcTicks % TimeSpan.TicksPerSecond), TimeSpan.Zero);

    private static double Tenths(TimeSpan time) => Math.Round(time.TotalSeconds, 1, MidpointRounding.AwayFromZero);

    /// <summary>
    /// The repository's commit (git HEAD) and whether the clone has changes besides this file: what a timing records of
    /// the code that ran, so ask before the notebook runs. "unknown" outside a git clone or without git.
    /// </summary>
    /// <param name="repository">The repository.</param>
    /// <param name="cancellationToken">Stops git.</param>
    public async Task<(string Commit, bool UncommittedChanges)> SourceAsync(string repository, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(repository);
        try
        {
            var head = await ChildProcess.RunAsync("git", ["rev-parse", "HEAD"], null, repository, TimeSpan.FromMinutes(1), null, cancellationToken).ConfigureAwait(false);
            if (head.ExitCode != 0)
            {
                return ("unknown", false);
            }

            // The timings file itself changes with every notebook timed: it is not a change to what ran.
            var self = ":(exclude)" + System.IO.Path.GetRelativePath(repository, Path).Replace('\\', '/');
            var status = await ChildProcess.RunAsync("git", ["status", "--porcelain", "--untracked-files=no", "--", ".", self], null, repository, TimeSpan.FromMinutes(1), null, cancellationToken).ConfigureAwait(false);
            return (head.StandardOutput.Trim(), status.ExitCode == 0 && status.StandardOutput.Trim().Length > 0);
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return ("unknown", false);
        }
    }

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,

        // Read by people in diffs: an apostrophe stays an apostrophe.
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    // The file as stored.
    private sealed record Stored(string? Schema, string? Mode, string? Caches, IReadOnlyList<NotebookTiming>? Notebooks);

    /// <summary>Formats seconds as the file stores them, for messages.</summary>
    /// <param name="seconds">Seconds.</param>
    public static string Seconds(double seconds) => seconds.ToString("0.0", CultureInfo.InvariantCulture) + " s";
}
