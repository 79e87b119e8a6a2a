using System.Globalization;
using System.Text.RegularExpressions;
using YamlDotNet.RepresentationModel;

namespace PerfLab.Setup.Tests.Support;

/// <summary>Checks a GitHub Actions workflow against the repository; every problem names the file and line.</summary>
public static partial class WorkflowCheck
{
    /// <summary>The workflows of the repository, as paths relative to its root.</summary>
    public static IReadOnlyList<string> Files() =>
        Directory.Exists(Repo.PathOf(".github/workflows"))
            ? Directory.EnumerateFiles(Repo.PathOf(".github/workflows"))
                .Where(f => f.EndsWith(".yml", StringComparison.Ordinal) || f.EndsWith(".yaml", StringComparison.Ordinal))
                .Select(f => Path.GetRelativePath(Repo.Root, f).Replace('\\', '/'))
                .Order(StringComparer.Ordinal)
                .ToList()
            : [];

    /// <summary>Parses the YAML; a syntax error becomes an exception naming the file and line.</summary>
    public static YamlMappingNode Parse(string text, string where)
    {
        var stream = new YamlStream();
        try
        {
            stream.Load(new StringReader(text));
        }
        catch (YamlDotNet.Core.YamlException e)
        {
            throw new InvalidOperationException($"{where}:{e.Start.Line}: not valid YAML: {e.Message}", e);
        }

        return stream.Documents.Count == 1 && stream.Documents[0].RootNode is YamlMappingNode root
            ? root
            : throw new InvalidOperationException($"{where}: expected one YAML document with a mapping at its root");
    }

    /// <summary>Every step of every job, with the job's name.</summary>
    public static IEnumerable<(string Job, YamlMappingNode Step)> Steps(YamlMappingNode root)
    {
        if (Child(root, "jobs") is not YamlMappingNode jobs)
        {
            yield break;
        }

        foreach (var (name, job) in jobs.Children)
        {
            if (job is YamlMappingNode jobMap && Child(jobMap, "steps") is YamlSequenceNode steps)
            {
                foreach (var step in steps.Children.OfType<YamlMappingNode>())
                {
                    yield return (((YamlScalarNode)name).Value!, step);
                }
            }
        }
    }

    /// <summary>actions/setup-dotnet installs the SDK global.json pins: global-json-file, or a dotnet-version on that line.</summary>
    public static IEnumerable<string> SetupDotnet(YamlMappingNode root, Version sdk, string where)
    {
        foreach (var (job, step) in Steps(root))
        {
            if (Scalar(step, "uses") is not { } uses || !uses.StartsWith("actions/setup-dotnet@", StringComparison.Ordinal))
            {
                continue;
            }

            var at = $"{where}:{step.Start.Line}: job {job}, {uses}";
            var with = Child(step, "with") as YamlMappingNode;
            var file = with is null ? null : Scalar(with, "global-json-file");
            var versions = with is null ? null : Scalar(with, "dotnet-version");
            if (file is not null)
            {
                if (file.TrimStart('.', '/') != "global.json")
                {
                    yield return $"{at}: global-json-file is \"{file}\", expected global.json (the repository root's)";
                }
            }
            else if (versions is null)
            {
                yield return $"{at}: names no SDK; add `global-json-file: global.json`";
            }
            else
            {
                foreach (var version in versions.Split((char[])['\n', ',', ' '], StringSplitOptions.RemoveEmptyEntries))
                {
                    if (!OnSdkLine(version, sdk))
                    {
                        yield return $"{at}: dotnet-version {version} is not on the line of global.json's SDK {sdk}; use `global-json-file: global.json`";
                    }
                }
            }
        }
    }

    /// <summary>Scripts a `run:` starts exist (executable when started directly, .ps1 aside); `dotnet run --project P` names a project.</summary>
    public static IEnumerable<string> RunSteps(YamlMappingNode root, string repoRoot, string where)
    {
        foreach (var (job, step) in Steps(root))
        {
            if (Child(step, "run") is not YamlScalarNode { Value: { } run } runNode)
            {
                continue;
            }

            var at = $"{where}:{runNode.Start.Line}: job {job}";
            var folder = Path.Combine(repoRoot, (Scalar(step, "working-directory") ?? ".").Replace('/', Path.DirectorySeparatorChar));
            foreach (var call in ScriptCalls.InShellText(run))
            {
                var path = Path.Combine(folder, call.Path.Replace('/', Path.DirectorySeparatorChar));
                if (!File.Exists(path))
                {
                    yield return $"{at}: runs {call.Path}, which does not exist";
                }
                else if (call.Direct && !call.Path.EndsWith(".ps1", StringComparison.Ordinal) && !Repo.IsExecutable(path))
                {
                    yield return $"{at}: runs {call.Path}, which is not executable (git update-index --chmod=+x {call.Path})";
                }
            }

            foreach (Match m in DotnetRunProject().Matches(run))
            {
                var project = m.Groups["project"].Value;
                var path = Path.Combine(folder, project.Replace('/', Path.DirectorySeparatorChar));
                var exists = File.Exists(path) ? path.EndsWith("proj", StringComparison.Ordinal)
                    : Directory.Exists(path) && Directory.EnumerateFiles(path, "*.*proj").Any();
                if (!exists)
                {
                    yield return $"{at}: dotnet run --project {project}: no such project";
                }
            }
        }
    }

    /// <summary>A package version written in a workflow (dotnet tool install/update, dotnet add package) equals Directory.Packages.props's.</summary>
    public static IEnumerable<string> PackageVersions(string text, IReadOnlyDictionary<string, string> pinned, string where)
    {
        foreach (Match m in PackageWithVersion().Matches(text))
        {
            var id = m.Groups["id"].Value;
            var version = m.Groups["version"].Value.Trim('"', '\'');
            var at = $"{where}:{Repo.LineOf(text, m.Index)}";
            if (!pinned.TryGetValue(id, out var expected))
            {
                yield return $"{at}: {id} {version} is not pinned in Directory.Packages.props (versions live there)";
            }
            else if (version != expected)
            {
                yield return $"{at}: {id} {version}, but Directory.Packages.props pins {expected}";
            }
        }
    }

    private static bool OnSdkLine(string version, Version sdk)
    {
        var parts = version.Trim('"', '\'').Split('.');
        if (!int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var major) || major != sdk.Major)
        {
            return false;
        }

        return parts.Length < 2 || parts[1] is "x" or "*"
            || (int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var minor) && minor == sdk.Minor);
    }

    private static YamlNode? Child(YamlMappingNode map, string key) =>
        map.Children.TryGetValue(new YamlScalarNode(key), out var node) ? node : null;

    private static string? Scalar(YamlMappingNode map, string key) => (Child(map, key) as YamlScalarNode)?.Value;

    [GeneratedRegex(@"\bdotnet\s+run\b[^\n]*?--project(?:\s+|=)[""']?(?<project>[^\s""']+)")]
    private static partial Regex DotnetRunProject();

    [GeneratedRegex(@"\bdotnet\s+(?:tool\s+(?:install|update)|add\s+(?:\S+\s+)?package)\s+(?:(?:-g|--global|--local)\s+)*(?<id>[A-Za-z0-9_.-]+)[^\n]*?--version(?:\s+|=)(?<version>\S+)")]
    private static partial Regex PackageWithVersion();
}
