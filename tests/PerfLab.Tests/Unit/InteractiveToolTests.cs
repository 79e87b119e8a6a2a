using PerfLab.Course.Setup;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>The doctor's line for the optional .NET Interactive tool: always information, never a warning or failure.</summary>
public sealed class InteractiveToolTests
{
    [Fact]
    public void A_restored_tool_is_reported_with_its_version_without_the_commit()
    {
        var check = InteractiveTool.Describe("1.0.712001", 0, "1.0.712001+df4e5cbcbe1b5d0ea85247226b7b896765a54611\n");

        Assert.Equal(CheckStatus.Info, check.Status);
        Assert.Equal(".NET Interactive", check.Name);
        Assert.StartsWith("dotnet-interactive 1.0.712001 restored (.config/dotnet-tools.json)", check.Detail, StringComparison.Ordinal);
        Assert.Null(check.Fix);
    }

    [Theory]
    [InlineData(1, "")]
    [InlineData(0, "1.0.611002+abc")]
    [InlineData(-1, "1.0.712001+abc")]
    public void A_tool_that_is_not_restored_or_another_version_is_information_naming_the_restore(int exitCode, string output)
    {
        var check = InteractiveTool.Describe("1.0.712001", exitCode, output);

        Assert.Equal(CheckStatus.Info, check.Status);
        Assert.Contains("dotnet-interactive 1.0.712001 is pinned in .config/dotnet-tools.json but not restored", check.Detail, StringComparison.Ordinal);
        Assert.Contains("`dotnet tool restore`", check.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public void The_pinned_version_is_read_from_the_manifest_and_absent_without_one()
    {
        using var repo = new TempFolder();
        Assert.Null(InteractiveTool.PinnedVersion(repo.Path));

        repo.Write(".config/dotnet-tools.json", """{ "version": 1, "isRoot": true, "tools": { "dotnet-ef": { "version": "10.0.0", "commands": ["dotnet-ef"] } } }""");
        Assert.Null(InteractiveTool.PinnedVersion(repo.Path));

        repo.Write(".config/dotnet-tools.json", """{ "version": 1, "isRoot": true, "tools": { "microsoft.dotnet-interactive": { "version": "1.0.712001", "commands": ["dotnet-interactive"], "rollForward": false } } }""");
        Assert.Equal("1.0.712001", InteractiveTool.PinnedVersion(repo.Path));
    }

    [Fact]
    public void The_repository_pins_the_tool_the_doctor_reports()
    {
        Assert.Equal("1.0.712001", InteractiveTool.PinnedVersion(PerfLab.Course.CourseRepository.Root()));
    }
}
