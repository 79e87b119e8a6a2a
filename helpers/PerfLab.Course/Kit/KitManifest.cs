using System.Text.Json;

namespace PerfLab.Course.Kit;

/// <summary>What an offline kit holds: its perflab-kit.json.</summary>
/// <param name="Format">The kit layout's version.</param>
/// <param name="Created">When the kit was made.</param>
/// <param name="SdkVersion">The .NET SDK that made it (its targeting packs are the ones in the kit).</param>
/// <param name="Platforms">Runtime identifiers the kit serves, e.g. linux-x64, win-x64.</param>
/// <param name="Runtimes">The pinned runtimes whose packs it holds, e.g. 8.0.31.</param>
/// <param name="PackageCount">How many packages are in packages/.</param>
/// <param name="PackageBytes">Their total size.</param>
/// <param name="CourseCommit">The course commit in course.bundle, when git was there to make one.</param>
public sealed record KitManifest(
    int Format,
    DateTimeOffset Created,
    string SdkVersion,
    IReadOnlyList<string> Platforms,
    IReadOnlyList<string> Runtimes,
    int PackageCount,
    long PackageBytes,
    string? CourseCommit)
{
    /// <summary>The kit layout this version of PerfLab makes and reads.</summary>
    internal const int CurrentFormat = 1;

    /// <summary>The manifest in a perflab-kit.json's text, or null for a file holding JSON null.</summary>
    /// <exception cref="JsonException">Not a manifest.</exception>
    internal static KitManifest? Parse(string json) => JsonSerializer.Deserialize<KitManifest>(json, JsonFormats.WebIndented);

    /// <summary>This manifest as perflab-kit.json's text.</summary>
    internal string ToJson() => JsonSerializer.Serialize(this, JsonFormats.WebIndented);
}
