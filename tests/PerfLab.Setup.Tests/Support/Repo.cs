using System.Text.Json;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using PerfLab.Course;

namespace PerfLab.Setup.Tests.Support;

/// <summary>Paths in the repository and the few facts the checks compare against.</summary>
public static class Repo
{
    /// <summary>The repository root (the folder holding PerfLab.slnx).</summary>
    public static string Root { get; } = CourseRepository.Root();

    /// <summary>A path below the root, from '/'-separated parts.</summary>
    public static string PathOf(string relative) => CourseRepository.PathOf(relative, Root);

    /// <summary>The SDK version global.json pins (sdk.version), e.g. 10.0.100.</summary>
    public static Version GlobalJsonSdk()
    {
        using var json = JsonDocument.Parse(File.ReadAllText(PathOf("global.json")));
        return Version.Parse(json.RootElement.GetProperty("sdk").GetProperty("version").GetString()!);
    }

    /// <summary>Directory.Packages.props as package id -> version (ids compared case-insensitively, as NuGet does).</summary>
    public static IReadOnlyDictionary<string, string> PackageVersions()
    {
        var props = XDocument.Load(PathOf("Directory.Packages.props"));
        return props.Descendants("PackageVersion")
            .ToDictionary(e => (string)e.Attribute("Include")!, e => (string)e.Attribute("Version")!, StringComparer.OrdinalIgnoreCase);
    }

    /// <summary>
    /// Whether a file has its owner's execute bit, which `./script` needs on Linux and macOS. Windows has no
    /// such bit (and checks out no modes), so there every existing file counts.
    /// </summary>
    public static bool IsExecutable(string path) =>
        OperatingSystem.IsWindows() || (File.GetUnixFileMode(path) & UnixFileMode.UserExecute) != 0;

    /// <summary>Lines numbered from 1, for messages that say where.</summary>
    public static int LineOf(string text, int index) => text.AsSpan(0, index).Count('\n') + 1;

    /// <summary>
    /// Every "8.0.x"/"9.0.x"-style runtime version in a text that differs from RuntimeCatalog's pin. The newest
    /// runtime is the SDK's own, whose "10.0.x" also spells SDK and package versions, so it is left out.
    /// </summary>
    public static IEnumerable<string> RuntimeVersionMismatches(string text, string where)
    {
        foreach (var runtime in PerfLab.Runtimes.RuntimeCatalog.All.SkipLast(1))
        {
            foreach (Match m in Regex.Matches(text, $@"(?<![\d.]){runtime.Major}\.0\.\d+(?![\d.])"))
            {
                if (m.Value != runtime.Version)
                {
                    yield return $"{where}:{LineOf(text, m.Index)}: .NET {m.Value} is not the pinned {runtime.Version} (helpers/PerfLab/Runtimes/Runtimes.props)";
                }
            }
        }
    }
}
