namespace PerfLab.Tests.Unit;

/// <summary>This assembly's lane check (<see cref="Support.TestLanes"/>).</summary>
public sealed class TestLaneTests : Support.TestLanes;
