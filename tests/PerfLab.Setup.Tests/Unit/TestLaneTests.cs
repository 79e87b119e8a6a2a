// The namespace every test project's lane check has had, so the test keeps its name in each.
namespace PerfLab.Tests.Unit;

/// <summary>This assembly's lane check (<see cref="Support.TestLanes"/>).</summary>
public sealed class TestLaneTests : Support.TestLanes;
