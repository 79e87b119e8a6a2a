using Xunit.Abstractions;

[assembly: TestCollectionOrderer("PerfLab.Notebooks.Tests.Support.RoutesFirst", "PerfLab.Notebooks.Tests")]

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// Starts the routes' collection (<see cref="BothRoutes"/>) first. Its fixture is the longest chain of the test run
/// (`perflab run`, then the nbclient routes), and xunit.runner.json runs two collections at a time, so the other
/// collections run one after another beside it instead of before it. What they measure meets at the measuring lock:
/// smoke runs share it, quick runs take it alone.
/// </summary>
public sealed class RoutesFirst : ITestCollectionOrderer
{
    /// <inheritdoc />
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections
            .OrderBy(c => c.DisplayName == BothRoutes.Name ? 0 : 1)
            .ThenBy(c => c.DisplayName, StringComparer.Ordinal);
}
