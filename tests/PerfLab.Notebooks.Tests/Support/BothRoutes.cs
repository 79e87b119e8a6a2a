using PerfLab.Notebooks.Tests.Integration;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// The tests that run every notebook in smoke mode and the claims tests that read what those runs produced. The
/// collection's fixture (<see cref="CourseRun"/>) runs `perflab run` beside the quick route
/// (<see cref="CourseRun.QuickRoute"/>), and the two nbclient routes side by side in the background, each notebook
/// once `perflab run` is done with it: the course kernel (<see cref="JupyterKernelTests"/>) and .NET Interactive
/// (<see cref="InteractiveRouteTests"/>).
/// One collection, so they share this test run's results and asm caches: the later routes answer their cells
/// from the first's results instead of measuring them again, and the claims read the routes' listings.
/// </summary>
[CollectionDefinition(Name)]
public sealed class BothRoutes : ICollectionFixture<CourseRun>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Every notebook by every route";
}
