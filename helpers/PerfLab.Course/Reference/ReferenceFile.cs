using PerfLab.Contract;
using PerfLab.Files;
using PerfLab.Results;
using PerfLab.Views.Json;

namespace PerfLab.Course.Reference;

/// <summary>
/// One machine's results file, OUT/NAME.json: this machine's description and the runs, written again (atomically)
/// each time the job finishes a suite file or notebook, so a job stopped half way keeps what it measured. When it
/// updates a file, the file's runs are read once, before anything is measured, and every write starts from them:
/// each run the file had is written byte for byte as it was.
/// </summary>
public sealed class ReferenceFile
{
    private readonly string _machineName;
    private readonly IReadOnlyList<RecordedRun> _earlier;
    private readonly bool _update;
    private readonly bool _addOnly;
    private MachineDescription? _machine;

    private ReferenceFile(string path, string machineName, BenchmarkMode mode, IReadOnlyList<RecordedRun> earlier, bool update, bool addOnly)
    {
        Path = path;
        Recorded = update && addOnly ? earlier : [];
        _machineName = machineName;
        Mode = mode;
        _earlier = earlier;
        _update = update;
        _addOnly = addOnly;
    }

    /// <summary>The file.</summary>
    public string Path { get; }

    /// <summary>The mode of its runs.</summary>
    public BenchmarkMode Mode { get; }

    /// <summary>
    /// The file for <paramref name="machineName"/> in <paramref name="outFolder"/>. Nothing is written yet; with
    /// <paramref name="update"/> the file must exist, be this schema and hold <paramref name="mode"/>'s runs (one
    /// file, one mode), and its runs are read now.
    /// </summary>
    /// <param name="outFolder">The results folder (created at the first write).</param>
    /// <param name="machineName">The machine's name (<see cref="ReferenceJob.MachineName"/>).</param>
    /// <param name="mode">The mode of the new runs.</param>
    /// <param name="update">Keep the file's runs of every suite file or notebook the job does not run; the others are replaced. False: the file is written anew.</param>
    /// <param name="addOnly">With <paramref name="update"/>: keep every run of the file and add the new ones after them (--only-missing).</param>
    /// <exception cref="PerfLabException">The name cannot be a file name; with <paramref name="update"/>: the file is missing, unreadable, of another schema or another mode.</exception>
    public static ReferenceFile Open(string outFolder, string machineName, BenchmarkMode mode, bool update, bool addOnly = false)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(outFolder);
        var name = ReferenceJob.MachineName(machineName);
        var path = System.IO.Path.Combine(System.IO.Path.GetFullPath(outFolder), name + ".json");
        var earlier = update ? ReadForUpdate(path, mode) : [];
        return new ReferenceFile(path, name, mode, earlier, update, addOnly);
    }

    /// <summary>With --only-missing (update, add only): the file's runs as it was opened, each with the content key of what it measured.</summary>
    public IReadOnlyList<RecordedRun> Recorded { get; }

    /// <summary>Writes the file: this machine's description, the runs kept from before and <paramref name="runs"/>.</summary>
    /// <param name="runs">Every run of this job so far, suite files first, in the order measured.</param>
    /// <param name="cancellationToken">Stops the processes that describe the machine, and the write (the file is then left as it was).</param>
    public async Task WriteAsync(IReadOnlyList<SuiteRun> runs, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runs);
        _machine ??= await MachineDescription.DescribeAsync(_machineName, CourseRepository.Root(), cancellationToken).ConfigureAwait(false);
        var document = new ReferenceDocument(DateTimeOffset.UtcNow, ModeChoice.Name(Mode), _machine, Compose(runs.Select(r => new RecordedRun(r.Suite, r.Code, r.Run)).ToList()).ToArray());
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(Path)!);
        await AtomicFile.WriteAllTextAsync(Path, ResultJson.Serialize(document), cancellationToken).ConfigureAwait(false);
    }

    // The runs to write: the file's earlier runs (each written as the file held it) and the fresh ones.
    private IEnumerable<RecordedRun> Compose(List<RecordedRun> fresh)
    {
        if (!_update)
        {
            return fresh;
        }

        if (_addOnly)
        {
            return _earlier.Concat(fresh);
        }

        // In the file's order: a suite file or notebook run again takes its old place; new ones go last.
        var written = new List<RecordedRun>();
        var rerun = fresh.Select(f => f.Suite).ToHashSet(StringComparer.Ordinal);
        foreach (var old in _earlier)
        {
            if (!rerun.Contains(old.Suite))
            {
                written.Add(old);
            }
            else if (rerun.Remove(old.Suite))
            {
                written.AddRange(fresh.Where(f => f.Suite == old.Suite));
            }
        }

        written.AddRange(fresh.Where(f => rerun.Contains(f.Suite)));
        return written;
    }

    private static IReadOnlyList<RecordedRun> ReadForUpdate(string target, BenchmarkMode mode)
    {
        if (!File.Exists(target))
        {
            throw new PerfLabException($"--update: there is no {target} to update.", "Leave out --update to write it anew, or check --out and --name.");
        }

        ReferenceDocument document;
        try
        {
            document = ReferenceDocument.Read(target);
        }
        catch (PerfLabException ex)
        {
            throw new PerfLabException("--update: " + ex.Message, "Restore it from git, or leave out --update to write it anew.", inner: ex);
        }

        var modeName = ModeChoice.Name(mode);
        if (document.Mode != modeName)
        {
            throw new PerfLabException(
                $"--update: {target} is schema {ReferenceDocument.Schema} in {document.Mode} mode; this job writes {ReferenceDocument.Schema} in {modeName} mode.",
                "A file holds one mode: run with the file's --mode, or leave out --update to replace it.");
        }

        return document.Runs;
    }
}
