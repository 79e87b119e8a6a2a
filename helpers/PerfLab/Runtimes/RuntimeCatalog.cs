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

    /// <inheritdoc />
    public override string ToString() => $"{Moniker} ({Version})";
}

/// <summary>
/// The one place the patch versions are pinned, so every result says exactly which runtime ran.
/// Change a version here and every run, cache key and report follows.
/// </summary>
public static class RuntimeCatalog
{
    /// <summary>Every runtime the course knows, oldest first.</summary>
    public static IReadOnlyList<PinnedRuntime> All { get; } =
    [
        new("net8.0", "8.0.31"),
        new("net9.0", "9.0.20"),
        new("net10.0", "10.0.12"),
    ];

    /// <summary>The monikers of <see cref="All"/>.</summary>
    public static IReadOnlyList<string> Monikers { get; } = All.Select(r => r.Moniker).ToArray();

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
    /// <param name="names">Runtime names; empty means all.</param>
    public static IReadOnlyList<PinnedRuntime> FindAll(IEnumerable<string>? names)
    {
        var list = names?.Where(n => !string.IsNullOrWhiteSpace(n)).ToList() ?? [];
        return list.Count == 0 ? All : list.Select(Find).Distinct().ToArray();
    }
}
