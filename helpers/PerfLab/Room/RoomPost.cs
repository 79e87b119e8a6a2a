using System.Security.Cryptography;
using System.Text.Json;
using PerfLab.Contract;
using PerfLab.Disassembly;
using PerfLab.Results;

namespace PerfLab.Room;

/// <summary>
/// What a laptop sends a workshop room for one finished run (POST /api/results), and what the room keeps: data only.
/// The run's rows (launch means, intervals, allocations; a smoke run's rows without numbers), the content key of the
/// benchmark's code and its notebook when known, the runtime versions, the machine (CPU model, OS, cores) and its
/// instruction sets, and the nickname the participant chose. Never the code, the host name or the user name: the
/// run's source is reduced to its file name, its machine loses its host name, a failed case keeps only that it failed.
/// </summary>
/// <param name="Schema">The layout's name and version, <see cref="CurrentSchema"/>; a room refuses any other.</param>
/// <param name="Id">This post's own random id: a post sent twice (its answer lost on the way) is stored once.</param>
/// <param name="Laptop">The laptop's random id, kept in its PerfLab home: the room keys the laptop's results by it.</param>
/// <param name="Nickname">The name the participant chose (<see cref="NicknameProblem"/>).</param>
/// <param name="Notebook">The course notebook the cell belongs to (notebooks/...), or null (a file run with `perflab bench`).</param>
/// <param name="Code">The content key of what the run measured (BenchmarkRequest.ContentKey): the room's cell.</param>
/// <param name="Machine">The laptop, named by its nickname.</param>
/// <param name="InstructionSets">The instruction sets the laptop's runtime uses (<see cref="InstructionSetProbe.OfThisProcess"/>).</param>
/// <param name="Run">The run, as `perflab bench --json` writes it (docs/results-schema.md), reduced as above.</param>
public sealed record RoomPost(
    string Schema,
    string Id,
    string Laptop,
    string Nickname,
    string? Notebook,
    string Code,
    MachineDescription Machine,
    InstructionSets InstructionSets,
    BenchmarkRun Run)
{
    /// <summary>The room's endpoint for posts (POST, the code as Authorization: Bearer CODE or <see cref="CodeHeader"/>).</summary>
    public const string ResultsPath = "/api/results";

    /// <summary>The room's endpoint that says whether a code is right, and how many laptops have posted (GET).</summary>
    public const string RoomPath = "/api/room";

    /// <summary>The header the room's code may travel in instead of Authorization: Bearer CODE.</summary>
    public const string CodeHeader = "X-PerfLab-Room-Code";

    /// <summary>The schema this library writes and a room of this version takes.</summary>
    public const string CurrentSchema = "perflab-room-post/1";

    /// <summary>The longest nickname, in characters.</summary>
    public const int NicknameLength = 40;

    /// <summary>What a failed case's error becomes: the laptop's message may name its folders (and so its user).</summary>
    public const string FailedOnTheLaptop = "failed on the laptop";

    /// <summary>
    /// The post for <paramref name="run"/>: its source reduced to a file name, no host name, failures without their
    /// text, no single measurements; in smoke mode, the rows without numbers (the laptop ran the cell, nothing more).
    /// </summary>
    /// <param name="run">A finished run, with its content key (<see cref="BenchmarkRun.Code"/>).</param>
    /// <param name="laptop">The laptop's id.</param>
    /// <param name="nickname">The participant's nickname.</param>
    /// <param name="notebook">The notebook, when known.</param>
    /// <param name="machine">The machine, named by <paramref name="nickname"/>.</param>
    /// <param name="instructionSets">The laptop's instruction sets.</param>
    public static RoomPost Of(BenchmarkRun run, string laptop, string nickname, string? notebook, MachineDescription machine, InstructionSets instructionSets)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(machine);
        var smoke = run.Mode == BenchmarkMode.Smoke;
        var rows = run.Results.Select(r => smoke ? WithoutNumbers(r) : r with { MeasurementsNs = [], Warnings = [] })
            .Select(r => r.Error is null ? r : r with { Error = r.TimedOut ? $"{BenchmarkResult.TimedOutPrefix} {FailedOnTheLaptop}" : FailedOnTheLaptop })
            .ToArray();
        var reduced = run with
        {
            Source = Path.GetFileName(run.Source),
            Machine = run.Machine with { MachineName = "" },
            Results = rows,
            Warnings = [],
        };
        return new RoomPost(CurrentSchema, NewId(), laptop, nickname, notebook, run.Code ?? "", machine with { Name = nickname }, instructionSets, reduced);
    }

    /// <summary>A new random id: 128 bits as 32 lowercase hexadecimal digits (a post's, a laptop's).</summary>
    public static string NewId() => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16));

    /// <summary>Whether <paramref name="id"/> is an id as <see cref="NewId"/> makes them.</summary>
    /// <param name="id">The text.</param>
    public static bool IsId(string? id) => id is { Length: 32 } && id.All(char.IsAsciiHexDigitLower);

    /// <summary>Why <paramref name="nickname"/> cannot be a nickname, or null when it can: 1 to 40 characters, no control characters.</summary>
    /// <param name="nickname">The nickname.</param>
    public static string? NicknameProblem(string? nickname) =>
        string.IsNullOrWhiteSpace(nickname) ? "the nickname is empty"
        : nickname.Length > NicknameLength ? $"the nickname has {nickname.Length} characters; at most {NicknameLength}"
        : nickname.Any(char.IsControl) ? "the nickname holds a control character"
        : null;

    /// <summary>The post as JSON, one line (as the room keeps it).</summary>
    public string ToJson() => JsonSerializer.Serialize(this, Compact);

    /// <summary>A post read back; the caller has checked its <see cref="Schema"/>.</summary>
    /// <param name="json">The text.</param>
    /// <exception cref="JsonException">It is not a post.</exception>
    public static RoomPost FromJson(string json) => JsonSerializer.Deserialize<RoomPost>(json, Compact) ?? throw new JsonException("null");

    // A run's own layout (JsonFormats.Results), on one line.
    private static readonly JsonSerializerOptions Compact = new(JsonFormats.Results) { WriteIndented = false };

    private static BenchmarkResult WithoutNumbers(BenchmarkResult r) => r with
    {
        Statistics = null,
        MeasurementsNs = [],
        LaunchMeansNs = null,
        LaunchMinsNs = null,
        LaunchRounds = null,
        AllocatedBytes = null,
        Gen0 = null,
        Gen1 = null,
        Gen2 = null,
        Ratio = null,
        RatioInterval = null,
        FastestRatio = null,
        FastestRatioInterval = null,
        AllocRatio = null,
        Warnings = [],
    };
}

/// <summary>A room's answer to a post it refused (a 4xx status): what happened and what to do.</summary>
/// <param name="Error">What happened, one sentence.</param>
/// <param name="Fix">What to do about it.</param>
public sealed record RoomRefusal(string Error, string Fix)
{
    /// <summary>"error Fix" on one line, as a laptop prints it.</summary>
    public override string ToString() => $"{Error} {Fix}";
}
