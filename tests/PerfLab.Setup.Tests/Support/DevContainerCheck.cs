using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace PerfLab.Setup.Tests.Support;

/// <summary>Checks a devcontainer.json against the repository; every problem names the file and what is wrong.</summary>
public static partial class DevContainerCheck
{
    /// <summary>The lifecycle commands of the spec, in the order they run.</summary>
    public static readonly string[] CommandProperties =
        ["initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand", "postAttachCommand"];

    private static readonly JsonDocumentOptions Options = new() { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true };

    /// <summary>Parses JSON with comments; a syntax error becomes an exception naming the file and line.</summary>
    public static JsonDocument Parse(string text, string where)
    {
        try
        {
            return JsonDocument.Parse(text, Options);
        }
        catch (JsonException e)
        {
            throw new InvalidOperationException($"{where}:{e.LineNumber + 1}: not valid JSON (with comments): {e.Message}", e);
        }
    }

    /// <summary>The image must be the official .NET dev container on the SDK line global.json pins.</summary>
    public static IEnumerable<string> Image(JsonElement root, Version sdk, string where)
    {
        if (!root.TryGetProperty("image", out var image) || image.ValueKind != JsonValueKind.String)
        {
            yield return $"{where}: no \"image\" (expected mcr.microsoft.com/devcontainers/dotnet:<tag>)";
            yield break;
        }

        var m = ImageTag().Match(image.GetString()!);
        if (!m.Success)
        {
            yield return $"{where}: image \"{image.GetString()}\" is not mcr.microsoft.com/devcontainers/dotnet with a .NET version tag (e.g. 2-10.0-noble)";
            yield break;
        }

        var major = int.Parse(m.Groups["major"].Value, CultureInfo.InvariantCulture);
        var minor = int.Parse(m.Groups["minor"].Value, CultureInfo.InvariantCulture);
        if (major != sdk.Major || minor != sdk.Minor)
        {
            yield return $"{where}: image \"{image.GetString()}\" carries .NET {major}.{minor}, but global.json pins SDK {sdk} ({sdk.Major}.{sdk.Minor})";
        }
    }

    /// <summary>Every script a lifecycle command starts must exist (and be executable when started directly).</summary>
    public static IEnumerable<string> Commands(JsonElement root, string repoRoot, string where)
    {
        foreach (var property in CommandProperties)
        {
            if (!root.TryGetProperty(property, out var command))
            {
                continue;
            }

            foreach (var (label, call) in Calls(property, command))
            {
                var path = Path.Combine(repoRoot, call.Path.Replace('/', Path.DirectorySeparatorChar));
                if (!File.Exists(path))
                {
                    yield return $"{where}: {label} runs {call.Path}, which does not exist (paths are relative to the repository root)";
                }
                else if (!Repo.IsExecutable(path))
                {
                    yield return $"{where}: {label} runs {call.Path}, which is not executable (chmod +x it and commit mode 100755: git update-index --chmod=+x {call.Path})";
                }
            }
        }
    }

    /// <summary>hostRequirements: at least 4 cores and 8 GB, what three runtimes side by side need.</summary>
    public static IEnumerable<string> HostRequirements(JsonElement root, string where)
    {
        if (!root.TryGetProperty("hostRequirements", out var host))
        {
            yield return $"{where}: no hostRequirements (expected cpus >= 4, memory >= 8gb)";
            yield break;
        }

        if (!host.TryGetProperty("cpus", out var cpus) || cpus.ValueKind != JsonValueKind.Number || cpus.GetInt32() < 4)
        {
            yield return $"{where}: hostRequirements.cpus must be a number >= 4 (it is {(host.TryGetProperty("cpus", out var c) ? c.GetRawText() : "missing")})";
        }

        var memory = host.TryGetProperty("memory", out var mem) && mem.ValueKind == JsonValueKind.String ? MemorySize().Match(mem.GetString()!) : Match.Empty;
        if (!memory.Success || GigaBytes(memory) < 8)
        {
            yield return $"{where}: hostRequirements.memory must be at least \"8gb\" (it is {(host.TryGetProperty("memory", out var m) ? m.GetRawText() : "missing")})";
        }
    }

    /// <summary>Extensions are marketplace ids, optionally pinned to an exact version: publisher.name[@x.y.z].</summary>
    public static IEnumerable<string> Extensions(JsonElement root, string where)
    {
        if (!root.TryGetProperty("customizations", out var customizations)
            || !customizations.TryGetProperty("vscode", out var vscode)
            || !vscode.TryGetProperty("extensions", out var extensions))
        {
            yield break;
        }

        foreach (var extension in extensions.EnumerateArray())
        {
            var id = extension.ValueKind == JsonValueKind.String ? extension.GetString()! : extension.GetRawText();
            if (!ExtensionId().IsMatch(id))
            {
                yield return $"{where}: customizations.vscode.extensions entry \"{id}\" is not publisher.name or publisher.name@x.y.z";
            }
        }
    }

    private static IEnumerable<(string Label, ScriptCall Call)> Calls(string property, JsonElement command)
    {
        switch (command.ValueKind)
        {
            case JsonValueKind.String:
                foreach (var call in ScriptCalls.InShellText(command.GetString()!))
                {
                    yield return (property, call);
                }

                break;
            case JsonValueKind.Array:
                var call1 = ScriptCalls.InWords(command.EnumerateArray().Select(e => e.GetString() ?? "").ToArray());
                if (call1 is not null)
                {
                    yield return (property, call1);
                }

                break;
            case JsonValueKind.Object:
                // Named commands run in parallel; each value is a string or an array again.
                foreach (var named in command.EnumerateObject())
                {
                    foreach (var (_, call) in Calls(property, named.Value))
                    {
                        yield return ($"{property}.{named.Name}", call);
                    }
                }

                break;
        }
    }

    private static double GigaBytes(Match m)
    {
        var value = double.Parse(m.Groups["value"].Value, CultureInfo.InvariantCulture);
        return m.Groups["unit"].Value.ToLowerInvariant() switch
        {
            "tb" => value * 1024,
            "gb" => value,
            "mb" => value / 1024,
            "kb" => value / 1024 / 1024,
            _ => value / 1024 / 1024 / 1024,
        };
    }

    // Tags: 10.0, 10.0-noble, 2-10.0-noble, 2.3.0-10.0 (image version prefix, then the .NET version).
    [GeneratedRegex(@"^mcr\.microsoft\.com/devcontainers/dotnet:(?:\d+(?:\.\d+){0,2}-)?(?<major>\d+)\.(?<minor>\d+)(?:-[a-z0-9.-]+)?$")]
    private static partial Regex ImageTag();

    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9-]*\.[A-Za-z0-9][A-Za-z0-9-]*(@\d+\.\d+\.\d+)?$")]
    private static partial Regex ExtensionId();

    [GeneratedRegex(@"^(?<value>\d+(?:\.\d+)?)(?<unit>tb|gb|mb|kb)?$", RegexOptions.IgnoreCase)]
    private static partial Regex MemorySize();
}
