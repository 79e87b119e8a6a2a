using System.Collections.Concurrent;
using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;

namespace PerfLab.Runtimes;

/// <summary>A runtime the course measures, pinned to an exact patch version.</summary>
/// <param name="Moniker">Target framework moniker, e.g. net8.0.</param>
/// <param name="Version">The exact Microsoft.NETCore.App version that runs, e.g. 8.0.31.</param>
public sealed record PinnedRuntime(string Moniker, string Version)
{
    /// <summary>The major version, e.g. 8.</summary>
    public int Major => int.Parse(Version.AsSpan(0, Version.IndexOf('.', StringComparison.Ordinal)), System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>"NET8_0"-style name used by preprocessor symbols.</summary>
    public string SymbolStem => "NET" + Major + "_0";

    /// <summary>
    /// The package of the reference assemblies a project targeting this runtime compiles against, e.g.
    /// Basic.Reference.Assemblies.Net80; PerfLab references one per runtime of Runtimes.props.
    /// </summary>
    public string ReferenceAssembliesPackage => $"Basic.Reference.Assemblies.Net{Major}0";

    /// <summary>The reference assemblies of <see cref="ReferenceAssembliesPackage"/>, which cells compile against.</summary>
    /// <exception cref="InvalidOperationException">PerfLab was built without that package.</exception>
    public IReadOnlyList<MetadataReference> ReferenceAssemblies() => Loaded.GetOrAdd(Moniker, _ => ReadReferenceAssemblies());

    private static readonly ConcurrentDictionary<string, IReadOnlyList<MetadataReference>> Loaded = new(StringComparer.Ordinal);

    // The package embeds each reference assembly as a resource named "net80.System.Runtime". They are read
    // as bytes, not through the package's own References.All: that returns Roslyn objects of whichever
    // Roslyn the package binds to, and a host that has its own (.NET Interactive) binds it to that one.
    // PerfLab's load context finds the package in any host: #r in .NET Interactive loads PerfLab in a
    // context of its own, which name lookup from the default context does not search.
    private IReadOnlyList<MetadataReference> ReadReferenceAssemblies()
    {
        var prefix = $"net{Major}0.";
        var package = OwnNeighbour(ReferenceAssembliesPackage);
        var references = new List<MetadataReference>();
        foreach (var name in package?.GetManifestResourceNames().Where(n => n.StartsWith(prefix, StringComparison.Ordinal)) ?? [])
        {
            using var stream = package!.GetManifestResourceStream(name)!;
            using var image = new MemoryStream();
            stream.CopyTo(image);
            references.Add(MetadataReference.CreateFromImage(image.ToArray(), filePath: name[prefix.Length..] + ".dll"));
        }

        return references.Count > 0
            ? references
            : throw new InvalidOperationException(
                $"The reference assemblies of {Moniker} ({ReferenceAssembliesPackage}) are not next to PerfLab; rebuild the helpers (`dotnet build helpers/PerfLab.Cli`).");
    }

    private static Assembly? OwnNeighbour(string name)
    {
        var context = AssemblyLoadContext.GetLoadContext(typeof(PinnedRuntime).Assembly) ?? AssemblyLoadContext.Default;
        try
        {
            return context.LoadFromAssemblyName(new AssemblyName(name));
        }
        catch (FileNotFoundException)
        {
            return null;
        }
    }

    /// <inheritdoc />
    public override string ToString() => $"{Moniker} ({Version})";
}

/// <summary>
/// The runtimes the course measures, as helpers/PerfLab/Runtimes/Runtimes.props lists and pins them: the one
/// place a runtime is added, so every result says exactly which runtime ran. The build writes that list
/// into PerfLab's assembly metadata, which this reads back; the project files derive their target
/// frameworks and reference-assembly packages from the same list. What is keyed by runtime here is derived
/// from <see cref="All"/> (host folders, regex generators, preprocessor symbols, runtime packs, defaults);
/// RuntimeKeyedFilesTests checks all of it.
/// </summary>
public static class RuntimeCatalog
{
    /// <summary>Every runtime the course knows, oldest first.</summary>
    public static IReadOnlyList<PinnedRuntime> All { get; } = Parse(BuiltList());

    /// <summary>The monikers of <see cref="All"/>.</summary>
    public static IReadOnlyList<string> Monikers { get; } = All.Select(r => r.Moniker).ToArray();

    /// <summary>The runtimes a run, capture or regex view uses when none are named: every one, oldest first.</summary>
    public static IReadOnlyList<PinnedRuntime> Default => All;

    /// <summary>The monikers of <see cref="Default"/>, e.g. for an option's default value.</summary>
    public static IReadOnlyList<string> DefaultMonikers { get; } = Default.Select(r => r.Moniker).ToArray();

    /// <summary>The runtimes in words, e.g. ".NET 8, 9 and 10", for descriptions.</summary>
    public static string InWords { get; } = ".NET " + string.Join(", ", All.SkipLast(1).Select(r => r.Major)) + (All.Count > 1 ? " and " : "") + All[^1].Major;

    /// <summary>Finds a runtime by moniker ("net8.0"; "net8" and "8.0" are accepted too).</summary>
    /// <param name="name">What the reader typed.</param>
    /// <exception cref="PerfLabException">The name is not one of <see cref="All"/>.</exception>
    public static PinnedRuntime Find(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var normalized = name.Trim().ToLowerInvariant();
        if (!normalized.StartsWith("net", StringComparison.Ordinal))
        {
            normalized = "net" + normalized;
        }

        if (!normalized.Contains('.', StringComparison.Ordinal))
        {
            normalized += ".0";
        }

        return All.FirstOrDefault(r => r.Moniker == normalized)
            ?? throw new PerfLabException(
                $"Unknown runtime '{name}'.",
                $"Use one of: {string.Join(", ", Monikers)}.");
    }

    /// <summary>Resolves a list of names, keeping the reader's order and dropping repeats.</summary>
    /// <param name="names">Runtime names; empty means <see cref="Default"/>.</param>
    public static IReadOnlyList<PinnedRuntime> FindAll(IEnumerable<string>? names)
    {
        var list = names?.Where(n => !string.IsNullOrWhiteSpace(n)).ToList() ?? [];
        return list.Count == 0 ? Default : list.Select(Find).Distinct().ToArray();
    }

    /// <summary>Reads a list in Runtimes.props' form: "net8.0=8.0.31;net9.0=9.0.20".</summary>
    /// <param name="list">The list.</param>
    /// <exception cref="FormatException">An entry is not moniker=version.</exception>
    internal static IReadOnlyList<PinnedRuntime> Parse(string list) =>
        list.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(entry => entry.Split('=', StringSplitOptions.TrimEntries) is [var moniker, var version] && moniker.Length > 0 && System.Version.TryParse(version, out _)
                ? new PinnedRuntime(moniker, version)
                : throw new FormatException($"'{entry}' in the runtime list is not moniker=version, e.g. net8.0=8.0.31 (helpers/PerfLab/Runtimes/Runtimes.props)."))
            .ToArray();

    // The list the build wrote from Runtimes.props (PerfLab.csproj's AssemblyMetadata).
    private static string BuiltList() =>
        typeof(RuntimeCatalog).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().SingleOrDefault(a => a.Key == "PerfLabRuntimes")?.Value
        ?? throw new InvalidOperationException("PerfLab was built without its runtime list (PerfLabRuntimes metadata from helpers/PerfLab/Runtimes/Runtimes.props).");
}
