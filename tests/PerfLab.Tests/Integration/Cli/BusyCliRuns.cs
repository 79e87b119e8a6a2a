namespace PerfLab.Tests.Integration;

/// <summary>
/// CLI tests that start many processes (the reference job runs a notebook) or time a reaction (Ctrl+C
/// within 30 s) run one class at a time: on 2 cores, the first starved the second in CI.
/// </summary>
[CollectionDefinition(Name)]
public sealed class BusyCliRuns
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Busy CLI runs";
}
