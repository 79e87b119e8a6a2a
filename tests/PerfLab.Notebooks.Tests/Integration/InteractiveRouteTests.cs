using PerfLab.Notebooks.Tests.Support;
using Xunit.Abstractions;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// The third route: every notebook, unchanged, in smoke mode through real .NET Interactive (the
/// dotnet-interactive tool .config/dotnet-tools.json pins, Polyglot Notebooks' engine) as a Jupyter kernel
/// driven by nbclient. The routes' fixture runs it (<see cref="CourseRun.InteractiveRoute"/>) behind `perflab run`,
/// each notebook once that run has filled this test run's results and asm caches for it, so it reads them instead of
/// measuring again.
/// </summary>
[Collection(BothRoutes.Name)]
public class InteractiveRouteTests(CourseRun course, ITestOutputHelper output)
{
    [Fact]
    public async Task Every_notebook_runs_in_dotnet_interactive_under_nbclient_in_smoke_mode_without_error_output()
    {
        var notebooks = RunCommandTests.CourseNotebooks();
        Assert.True(notebooks.Count > 0, $"No notebook found under {Repo.Notebooks}: there is nothing to run.");

        var route = await course.InteractiveRoute;

        output.WriteLine($".NET Interactive {course.Interactive?.ToolVersion}, HTTP ports {course.Interactive?.Ports}, smoke mode, PERFLAB_HOME {TestHome.Path}");
        foreach (var line in route.Timings())
        {
            output.WriteLine(line);
        }

        route.AssertEveryCellRan(notebooks, $".NET Interactive {course.Interactive?.Version}");
    }
}
