namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// The two routes that run every notebook in smoke mode, `perflab run` and nbclient on the course kernel,
/// run one after the other: they share the test home's results cache, so the second answers most benchmark
/// cells from the first's results instead of measuring them again beside it on the same two cores.
/// </summary>
[CollectionDefinition(Name)]
public sealed class BothRoutes
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Every notebook by both routes";
}
