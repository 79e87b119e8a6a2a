using System.Reflection;

namespace PerfLab.Tests.Support;

/// <summary>
/// The two test lanes, decided by namespace: a test class in a <c>.Unit</c> namespace is in the fast lane
/// (<c>./test.sh --fast</c>: no runtime process, no browser, no Jupyter, nothing installed beyond the SDK);
/// one in an <c>.Integration</c> namespace runs only in the whole suite. Every test project declares
/// <c>public sealed class TestLaneTests : TestLanes;</c> in its <c>Unit</c> namespace, so each checks its own
/// assembly.
/// </summary>
public abstract class TestLanes
{
    /// <summary>The <c>dotnet test</c> filter of the fast lane, as test.sh and test.ps1 pass it.</summary>
    public const string FastLaneFilter = "FullyQualifiedName~.Unit.";

    private static readonly string[] Lanes = [".Unit", ".Integration"];

    [Fact]
    public void Every_test_class_is_in_the_unit_or_the_integration_lane()
    {
        var strays = GetType().Assembly.GetTypes()
            .Where(t => t.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly)
                .Any(m => m.IsDefined(typeof(FactAttribute), inherit: true)))
            .Where(t => !Lanes.Any(lane => t.Namespace?.EndsWith(lane, StringComparison.Ordinal) == true))
            .Select(t => t.FullName)
            .Order(StringComparer.Ordinal)
            .ToArray();

        Assert.True(strays.Length == 0,
            $"Test classes in neither lane (move each to a Unit/ folder and namespace if it needs no runtime process, browser or Jupyter, else to Integration/): {string.Join(", ", strays)}");
    }

    [Fact]
    public void The_test_scripts_run_the_fast_lane_with_the_lanes_filter()
    {
        var root = PerfLab.Course.CourseRepository.Root();
        foreach (var script in new[] { "test.sh", "test.ps1" })
        {
            var text = File.ReadAllText(Path.Combine(root, script));
            Assert.True(text.Contains(FastLaneFilter, StringComparison.Ordinal), $"{script} does not pass the fast lane's filter \"{FastLaneFilter}\" (TestLanes.FastLaneFilter)");
        }
    }
}
