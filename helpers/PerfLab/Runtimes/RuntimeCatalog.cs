using Microsoft.CodeAnalysis;

namespace PerfLab.Runtimes;

/// <summary>A runtime the course measures, pinned to an exact patch version.</summary>
/// <param name="Moniker">Target framework moniker, e.g. net8.0.</param>
/// <param name="Version">The exact Microsoft.NETCore.App version that runs, e.g. 8.0.31.</param>
public sealed record PinnedRuntime(string Moniker, string Version)
{
    /// <summary>
    /// The reference assemblies a project targeting this runtime compiles against (its
    /// Basic.Reference.Assemblies package), read when first compiled against.
    /// </summary>
    public required Func<IEnumerable<MetadataReference>> ReferenceAssemblies { get; init; }

    /// <summary>The major version, e.g. 8.</summary>
    public int Major => int.Parse(Version.AsSpan(0, Version.IndexOf('.', StringComparison.Ordinal)), System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>"NET8_0"-style name used by preprocessor symbols.</summary>
    public string SymbolStem => "NET" + Major + "_0";

    /// <inheritdoc />
    public override string ToString() => $"{Moniker} ({Version})";
}

/// <summary>
/// The one place a runtime is added and its patch version pinned, so every result says exactly which
/// runtime ran. Change a version here and every run, cache key and report follows. What is keyed by
/// runtime elsewhere is derived from this list (host folders, regex generators, preprocessor symbols,
/// runtime packs, defaults) or, where a file must keep a literal list (the host's and inputs' project
/// files, the host bundle's check, the reference-assembly packages), checked against it by
/// RuntimeCatalogTests, which names each file still to change when a runtime is added.
/// </summary>
public static class RuntimeCatalog
{
    /// <summary>Every runtime the course knows, oldest first.</summary>
    public static IReadOnlyList<PinnedRuntime> All { get; } =
    [
        new("net8.0", "8.0.31") { ReferenceAssemblies = () => Basic.Reference.Assemblies.Net80.References.All },
        new("net9.0", "9.0.20") { ReferenceAssemblies = () => Basic.Reference.Assemblies.Net90.References.All },
        new("net10.0", "10.0.12") { ReferenceAssemblies = () => Basic.Reference.Assemblies.Net100.References.All },
    ];

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
}
