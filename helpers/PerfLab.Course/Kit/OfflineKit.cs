using System.Text.Json;
using PerfLab.Runtimes;

namespace PerfLab.Course.Kit;

/// <summary>
/// A folder that lets the course be set up with no network (a workshop room): every NuGet package the
/// helpers restore, the runtime packs of the pinned runtimes and the apphost packs, for each chosen
/// platform, as a flat package source (packages/); a git bundle of the course; and perflab-kit.json.
/// Made by <see cref="KitPrefetch"/> (<c>perflab prefetch</c>); opened here for <c>setup.sh --from</c> /
/// <c>perflab setup --from</c>.
/// </summary>
public sealed class OfflineKit
{
    /// <summary>The manifest's file name; written last, so a half-made kit is never taken for a kit.</summary>
    public const string ManifestFileName = "perflab-kit.json";

    /// <summary>The git bundle of the course the kit was made from.</summary>
    public const string CourseBundleFileName = "course.bundle";

    /// <summary>The flat package source's folder in the kit.</summary>
    internal const string PackagesFolderName = "packages";

    private OfflineKit(string root, KitManifest manifest)
    {
        Root = root;
        Manifest = manifest;
    }

    /// <summary>Platforms a kit can be made for.</summary>
    public static IReadOnlyList<string> KnownPlatforms { get; } = ["linux-x64", "linux-arm64", "osx-x64", "osx-arm64", "win-x64", "win-arm64"];

    /// <summary>This machine's platform.</summary>
    public static string CurrentPlatform => RuntimeProvisioner.RuntimeIdentifier;

    /// <summary>The kit's folder.</summary>
    public string Root { get; }

    /// <summary>Its manifest.</summary>
    public KitManifest Manifest { get; }

    /// <summary>The flat package source inside the kit.</summary>
    public string PackagesFolder => Path.Combine(Root, PackagesFolderName);

    /// <summary>Opens a kit and checks it serves this machine.</summary>
    /// <param name="folder">The kit's folder.</param>
    /// <exception cref="PerfLabException">Not a kit, a damaged one, or made for other platforms.</exception>
    public static OfflineKit Open(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var root = Path.GetFullPath(folder);
        var manifestFile = Path.Combine(root, ManifestFileName);
        if (!File.Exists(manifestFile))
        {
            throw new PerfLabException(
                $"{root} is not an offline kit: it has no {ManifestFileName}.",
                "Make one on a connected machine: `dotnet run --project helpers/PerfLab.Cli -- prefetch --out KIT`, then copy the whole folder.");
        }

        KitManifest? manifest;
        try
        {
            manifest = KitManifest.Parse(File.ReadAllText(manifestFile));
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"{manifestFile} is damaged: {ex.Message}", "Copy the kit again, or make it again with `perflab prefetch`.", inner: ex);
        }

        if (manifest is null || manifest.Format != KitManifest.CurrentFormat || manifest.Platforms is null)
        {
            throw new PerfLabException($"{manifestFile} is not a kit this version of PerfLab reads (format {manifest?.Format}).", "Make the kit again with this course's `perflab prefetch`.");
        }

        var kit = new OfflineKit(root, manifest);
        if (!Directory.Exists(kit.PackagesFolder))
        {
            throw new PerfLabException($"The kit at {root} has no packages/ folder.", "Copy the whole kit folder, not only its manifest.");
        }

        if (!manifest.Platforms.Contains(CurrentPlatform, StringComparer.OrdinalIgnoreCase))
        {
            throw new PerfLabException(
                $"The kit at {root} was made for {string.Join(", ", manifest.Platforms)}; this machine is {CurrentPlatform}.",
                $"Make a kit that includes it: `perflab prefetch --out KIT --platform {CurrentPlatform}` (or `--platform all`).");
        }

        return kit;
    }
}
