using System.Text.Json;
using System.Text.Json.Nodes;
using PerfLab.Notebooks.Documents;
using PerfLab.Results;
using PerfLab.Room;

namespace PerfLab.Course.Room;

/// <summary>
/// What a room takes: a post's body checked, in the order a reader's mistake is likeliest to be named first (JSON,
/// schema, fields, values, notebook), into a <see cref="RoomPost"/> or one refusal with its status. Nothing here stores
/// anything: a refused post leaves no trace.
/// </summary>
public sealed class RoomIntake
{
    private static readonly string[] Required = ["schema", "id", "laptop", "nickname", "code", "machine", "instructionSets", "run"];

    private readonly IReadOnlySet<string> _notebooks;

    /// <summary>An intake that takes posts of <paramref name="notebooks"/> (repository-relative, e.g. notebooks/jit/01-tiering-and-pgo.ipynb), and of no notebook.</summary>
    /// <param name="notebooks">The course's notebooks.</param>
    public RoomIntake(IEnumerable<string> notebooks)
    {
        _notebooks = notebooks.ToHashSet(StringComparer.Ordinal);
    }

    /// <summary>An intake for the course this build belongs to: every notebook under notebooks/.</summary>
    public static RoomIntake ForCourse()
    {
        var root = CourseRepository.Root();
        var (_, notebooks) = NotebookFiles.Find(CourseRepository.PathOf(CourseRepository.NotebooksFolder, root));
        return new RoomIntake(notebooks.Select(n => CourseRepository.Relative(n, root)));
    }

    /// <summary>The post in <paramref name="body"/>, or why not.</summary>
    /// <param name="body">The request's body, UTF-8.</param>
    public (RoomPost? Post, int Status, RoomRefusal? Refusal) Read(ReadOnlySpan<byte> body)
    {
        JsonNode? node;
        try
        {
            node = JsonNode.Parse(body);
        }
        catch (JsonException ex)
        {
            return Refuse(400, $"The post is not valid JSON ({ex.Message}).", SameVersion);
        }

        if (node is not JsonObject document)
        {
            return Refuse(400, "The post is JSON, but not an object.", SameVersion);
        }

        if (document["schema"] is not JsonValue schemaValue || !schemaValue.TryGetValue<string>(out var schema))
        {
            return Refuse(400, "The post has no 'schema'.", SameVersion);
        }

        if (schema != RoomPost.CurrentSchema)
        {
            return Refuse(422, $"The post is schema '{schema}'; this room takes '{RoomPost.CurrentSchema}'.", SameVersion);
        }

        if (Required.FirstOrDefault(name => document[name] is null) is { } missing)
        {
            return Refuse(400, $"The post has no '{missing}'.", SameVersion);
        }

        RoomPost post;
        try
        {
            post = document.Deserialize<RoomPost>(JsonFormats.Results)!;
        }
        catch (JsonException ex)
        {
            return Refuse(400, $"The post's {ex.Path ?? "content"} is not what a room takes ({FirstSentence(ex.Message)}).", SameVersion);
        }
        catch (Exception ex) when (ex is InvalidOperationException or NotSupportedException or FormatException)
        {
            return Refuse(400, $"The post is not what a room takes ({FirstSentence(ex.Message)}).", SameVersion);
        }

        return Check(post) is { } problem ? Refuse(problem.Status, problem.Error, problem.Fix) : (post, 200, null);
    }

    private (int Status, string Error, string Fix)? Check(RoomPost post)
    {
        if (!RoomPost.IsId(post.Id))
        {
            return (422, $"The post's id '{post.Id}' is not 32 lowercase hexadecimal digits.", SameVersion);
        }

        if (!RoomPost.IsId(post.Laptop))
        {
            return (422, $"The post's laptop '{post.Laptop}' is not 32 lowercase hexadecimal digits.", SameVersion);
        }

        if (RoomPost.NicknameProblem(post.Nickname) is { } nickname)
        {
            return (422, $"The post's nickname cannot be shown: {nickname}.", "Join again with another --name: `perflab room join ADDRESS --code CODE --name NICKNAME`.");
        }

        if (post.Code is not { Length: 64 } || !post.Code.All(char.IsAsciiHexDigitLower))
        {
            return (422, "The post's code is not a content key (64 lowercase hexadecimal digits).", SameVersion);
        }

        if (post.Machine?.Os is null || post.InstructionSets?.Rows is null || post.Run?.Results is null || post.Run.Runtimes is null)
        {
            return (400, "The post's machine, instruction sets or run lack their fields.", SameVersion);
        }

        if (post.Run.SchemaVersion != BenchmarkRun.CurrentSchemaVersion)
        {
            return (422, $"The post's run is results schema {post.Run.SchemaVersion}; this room reads {BenchmarkRun.CurrentSchemaVersion}.", SameVersion);
        }

        if (post.Notebook is { } notebook && !_notebooks.Contains(notebook))
        {
            return (422, $"The notebook '{notebook}' is not one of this course's notebooks.", "Run the cell from a notebook of the course's notebooks/ folder (or a file with `perflab bench`).");
        }

        return null;
    }

    private const string SameVersion = "The laptop and the room must run the same course version: update both (git pull, then ./setup.sh).";

    private static (RoomPost?, int, RoomRefusal?) Refuse(int status, string error, string fix) => (null, status, new RoomRefusal(error, fix));

    private static string FirstSentence(string message)
    {
        var end = message.IndexOf(". ", StringComparison.Ordinal);
        return (end < 0 ? message : message[..end]).TrimEnd('.');
    }
}
