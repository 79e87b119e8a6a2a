namespace PerfLab.Runtimes;

/// <summary>Where a runtime comes from.</summary>
public enum RuntimeSource
{
    /// <summary>Installed with the .NET SDK or a system package.</summary>
    Installed,

    /// <summary>Provisioned by PerfLab from a NuGet runtime pack into the PerfLab home.</summary>
    Provisioned,

    /// <summary>Neither: provisioned on first use.</summary>
    Missing,
}

/// <summary>The one place a <see cref="RuntimeSource"/> becomes text.</summary>
public static class RuntimeSourceText
{
    /// <summary>
    /// "installed", "provisioned" or "missing": a run's runtimes (the results' <c>source</c>), `perflab
    /// runtimes`, `perflab setup` and the doctor.
    /// </summary>
    /// <param name="source">Where the runtime comes from.</param>
    public static string Name(this RuntimeSource source) => source switch
    {
        RuntimeSource.Installed => "installed",
        RuntimeSource.Provisioned => "provisioned",
        RuntimeSource.Missing => "missing",
        _ => throw new ArgumentOutOfRangeException(nameof(source), source, null),
    };

    /// <summary>The setup cell's words for it, e.g. "provisioned by PerfLab".</summary>
    /// <param name="source">Where the runtime comes from.</param>
    public static string Describe(this RuntimeSource source) => source switch
    {
        RuntimeSource.Installed => "installed",
        RuntimeSource.Provisioned => "provisioned by PerfLab",
        _ => "not here yet: provisioned from NuGet on first run (a few seconds)",
    };
}
