using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
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
    /// <summary>The results file's schema name.</summary>
    public const string Schema = ReferenceRuns.Schema;

    private readonly string _machineName;
    private readonly JsonNode[] _earlier;
    private readonly bool _update;
    private readonly bool _addOnly;
    private MachineDescription? _machine;

    private ReferenceFile(string path, string machineName, BenchmarkMode mode, JsonNode[] earlier, bool update, bool addOnly)
    {
        Path = path;
        Recorded = update && addOnly ? ReferenceRuns.ReadRuns(path) : [];
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
        var earlier = update ? ReadForUpdate(path, mode).OfType<JsonNode>().ToArray() : [];
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
        var fresh = runs.Select(r => (r.Suite, Node: (JsonNode)new JsonObject
        {
            ["suite"] = r.Suite,
            ["code"] = r.Code,
            ["run"] = JsonNode.Parse(ResultJson.Serialize(r.Run)),
        })).ToList();
        _machine ??= await MachineDescription.DescribeAsync(_machineName, CourseRepository.Root(), cancellationToken).ConfigureAwait(false);
        var document = new JsonObject
        {
            ["schema"] = Schema,
            ["created"] = DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture),
            ["mode"] = ModeChoice.Name(Mode),
            ["machine"] = JsonSerializer.SerializeToNode(_machine, JsonFormats.WebIndented),
            ["runs"] = new JsonArray(Compose(fresh).ToArray()),
        };
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(Path)!);
        await AtomicFile.WriteAllTextAsync(Path, document.ToJsonString(JsonFormats.WebIndented) + "\n", cancellationToken).ConfigureAwait(false);
    }

    // The runs to write: the file's earlier runs (copies: every write starts from them again) and the fresh ones.
    private IEnumerable<JsonNode> Compose(List<(string Suite, JsonNode Node)> fresh)
    {
        if (!_update)
        {
            return fresh.Select(f => f.Node);
        }

        if (_addOnly)
        {
            return _earlier.Select(old => old.DeepClone()).Concat(fresh.Select(f => f.Node));
        }

        // In the file's order: a suite file or notebook run again takes its old place; new ones go last.
        var written = new List<JsonNode>();
        var rerun = fresh.Select(f => f.Suite).ToHashSet(StringComparer.Ordinal);
        foreach (var old in _earlier)
        {
            var suite = (string?)old["suite"] ?? "";
            if (!rerun.Contains(suite))
            {
                written.Add(old.DeepClone());
            }
            else if (rerun.Remove(suite))
            {
                written.AddRange(fresh.Where(f => f.Suite == suite).Select(f => f.Node));
            }
        }

        written.AddRange(fresh.Where(f => rerun.Contains(f.Suite)).Select(f => f.Node));
        return written;
    }

    private static JsonArray ReadForUpdate(string target, BenchmarkMode mode)
    {
        if (!File.Exists(target))
        {
            throw new PerfLabException($"--update: there is no {target} to update.", "Leave out --update to write it anew, or check --out and --name.");
        }

        JsonNode? document;
        try
        {
            document = JsonNode.Parse(File.ReadAllText(target));
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"--update: {target} is not valid JSON ({ex.Message}).", "Restore it from git, or leave out --update to write it anew.");
        }

        var modeName = ModeChoice.Name(mode);
        if ((string?)document?["schema"] != Schema || (string?)document?["mode"] != modeName || document?["runs"] is not JsonArray runs)
        {
            throw new PerfLabException(
                $"--update: {target} is schema {(string?)document?["schema"] ?? "(none)"} in {(string?)document?["mode"] ?? "(no)"} mode; this job writes {Schema} in {modeName} mode.",
                "A file holds one mode: run with the file's --mode, or leave out --update to replace it.");
        }

        return runs;
    }
}
