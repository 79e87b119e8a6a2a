using PerfLab.Notebooks.Tests.Integration;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// The tests that run every notebook in smoke mode, by `perflab run` (the collection's fixture,
/// <see cref="CourseRun"/>, before any test here), by nbclient on the course kernel and by nbclient on .NET
/// Interactive (<see cref="InteractiveRouteTests"/>), and the claims tests
/// that read what those runs produced (and the quick route's runs, <see cref="CourseRun.QuickRoute"/>). One collection, so they run one after the other: they share this test
/// run's results and asm caches, so the later routes answer most cells from the first's results instead of
/// measuring them again beside it on the same two cores, and the claims read the routes' listings.
/// </summary>
[CollectionDefinition(Name)]
public sealed class BothRoutes : ICollectionFixture<CourseRun>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Every notebook by every route";
}
