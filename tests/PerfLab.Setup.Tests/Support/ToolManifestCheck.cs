using System.Text.Json;
using System.Text.RegularExpressions;

namespace PerfLab.Setup.Tests.Support;

/// <summary>
/// Checks the local tool manifest (.config/dotnet-tools.json) and the scripts that restore it; every problem
/// names the file and what is wrong.
/// </summary>
public static partial class ToolManifestCheck
{
    /// <summary>Where the manifest lives, relative to the repository root.</summary>
    public const string ManifestPath = ".config/dotnet-tools.json";

    /// <summary>The tool's package id as the manifest spells it (lower case, as `dotnet tool install` writes it).</summary>
    public const string InteractiveTool = "microsoft.dotnet-interactive";

    /// <summary>The .NET Interactive version the course's Interactive route is tested with.</summary>
    public const string InteractiveVersion = "1.0.712001";

    /// <summary>
    /// The manifest must be a root manifest (version 1) pinning <see cref="InteractiveTool"/> at exactly
    /// <see cref="InteractiveVersion"/>, with its one command and no roll-forward to a newer version.
    /// </summary>
    public static IEnumerable<string> PinsInteractive(string json, string where)
    {
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json);
        }
        catch (JsonException e)
        {
            return [$"{where}:{e.LineNumber + 1}: not valid JSON: {e.Message}"];
        }

        using (document)
        {
            return Problems(document.RootElement, where).ToList();
        }
    }

    /// <summary>
    /// The script must run `dotnet tool restore` as a command (not only mention it in a comment or a message):
    /// a line whose command, after an optional `if !`, `if`, `!` or PowerShell's `&amp;`, starts with it, or
    /// that runs `dotnet` with an argument array built from ('tool', 'restore' | tool restore).
    /// </summary>
    public static IEnumerable<string> RestoresTools(string script, string where)
    {
        var lines = script.Split('\n').Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith('#')).ToList();
        if (lines.Any(l => RestoreCommand().IsMatch(l)))
        {
            yield break;
        }

        // The array form both setup scripts use: tool_args=(tool restore) / $toolArgs = @('tool', 'restore'), then dotnet "${tool_args[@]}" / & dotnet @toolArgs.
        foreach (var line in lines)
        {
            var array = RestoreArray().Match(line);
            if (array.Success && lines.Any(l => RunsArray(l, array.Groups["name"].Value)))
            {
                yield break;
            }
        }

        yield return $"{where}: never runs `dotnet tool restore`, so the dotnet-interactive tool {ManifestPath} pins is not restored (the Interactive route and Polyglot Notebooks need it)";
    }

    private static IEnumerable<string> Problems(JsonElement root, string where)
    {
        if (root.ValueKind != JsonValueKind.Object)
        {
            yield return $"{where}: not a JSON object";
            yield break;
        }

        if (!root.TryGetProperty("version", out var version) || version.ValueKind != JsonValueKind.Number || version.GetInt32() != 1)
        {
            yield return $"{where}: \"version\" must be 1 (the manifest format `dotnet tool` reads)";
        }

        if (!root.TryGetProperty("isRoot", out var isRoot) || isRoot.ValueKind != JsonValueKind.True)
        {
            yield return $"{where}: \"isRoot\" must be true, so `dotnet tool` never looks for manifests above the repository";
        }

        if (!root.TryGetProperty("tools", out var tools) || tools.ValueKind != JsonValueKind.Object
            || !tools.TryGetProperty(InteractiveTool, out var tool) || tool.ValueKind != JsonValueKind.Object)
        {
            yield return $"{where}: no \"tools\".\"{InteractiveTool}\" (expected version {InteractiveVersion})";
            yield break;
        }

        var pinned = tool.TryGetProperty("version", out var v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;
        if (pinned != InteractiveVersion)
        {
            yield return $"{where}: {InteractiveTool} is pinned at {pinned ?? "no version"}, but the Interactive route is tested with {InteractiveVersion} (ToolManifestCheck.InteractiveVersion)";
        }

        var commands = tool.TryGetProperty("commands", out var c) && c.ValueKind == JsonValueKind.Array
            ? c.EnumerateArray().Select(e => e.ValueKind == JsonValueKind.String ? e.GetString() : e.GetRawText()).ToArray()
            : [];
        if (commands is not ["dotnet-interactive"])
        {
            yield return $"{where}: {InteractiveTool} must have the one command [\"dotnet-interactive\"] (it has [{string.Join(", ", commands.Select(x => $"\"{x}\""))}]); the kernelspec runs `dotnet tool run dotnet-interactive`";
        }

        if (!tool.TryGetProperty("rollForward", out var roll) || roll.ValueKind != JsonValueKind.False)
        {
            yield return $"{where}: {InteractiveTool} must have \"rollForward\": false, so no newer version runs in its place";
        }
    }

    private static bool RunsArray(string line, string name) =>
        line.Contains($"dotnet \"${{{name}[@]}}\"", StringComparison.Ordinal) || Regex.IsMatch(line, $@"^&\s*dotnet\s+@{Regex.Escape(name)}\b");

    // A command line starting with `dotnet tool restore`, after `if !`, `if`, `!` or `&`.
    [GeneratedRegex(@"^(?:if\s+(?:!\s*)?|!\s*|&\s*)?dotnet\s+tool\s+restore\b")]
    private static partial Regex RestoreCommand();

    // tool_args=(tool restore ...) or $toolArgs = @('tool', 'restore' ...).
    [GeneratedRegex(@"^\$?(?<name>\w+)\s*=\s*(?:\(\s*tool\s+restore\b|@\(\s*'tool'\s*,\s*'restore'\s*[,)])")]
    private static partial Regex RestoreArray();
}
