using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Unit;

/// <summary>
/// .config/dotnet-tools.json pins the .NET Interactive tool the Interactive route runs, and the scripts that
/// set a machine up or test it restore it; the bad samples prove each check bites.
/// </summary>
public sealed class ToolManifestTests
{
    private const string GoodManifest = """
        {
          "version": 1,
          "isRoot": true,
          "tools": {
            "microsoft.dotnet-interactive": { "version": "1.0.712001", "commands": ["dotnet-interactive"], "rollForward": false }
          }
        }
        """;

    private static void NoProblems(IEnumerable<string> problems)
    {
        var list = problems.ToList();
        Assert.True(list.Count == 0, string.Join(Environment.NewLine, list));
    }

    [Fact]
    public void The_manifest_pins_exactly_the_tested_dotnet_interactive()
    {
        var path = Repo.PathOf(ToolManifestCheck.ManifestPath);
        Assert.True(File.Exists(path), $"{ToolManifestCheck.ManifestPath} is missing: the Interactive route and `dotnet tool restore` need it.");
        NoProblems(ToolManifestCheck.PinsInteractive(File.ReadAllText(path), ToolManifestCheck.ManifestPath));
    }

    [Fact]
    public void A_well_formed_sample_manifest_passes()
    {
        // Guards the check against reporting what is right.
        NoProblems(ToolManifestCheck.PinsInteractive(GoodManifest, "sample"));
    }

    [Fact]
    public void Another_version_a_roll_forward_or_another_command_is_reported()
    {
        var problems = ToolManifestCheck.PinsInteractive("""
            {
              "version": 1,
              "isRoot": true,
              "tools": {
                "microsoft.dotnet-interactive": { "version": "1.0.611002", "commands": ["dotnet-interactive", "extra"], "rollForward": true }
              }
            }
            """, "sample").ToList();

        Assert.Equal(3, problems.Count);
        Assert.Contains(problems, p => p.StartsWith("sample: microsoft.dotnet-interactive is pinned at 1.0.611002, but the Interactive route is tested with 1.0.712001", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("must have the one command [\"dotnet-interactive\"] (it has [\"dotnet-interactive\", \"extra\"])", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("\"rollForward\": false", StringComparison.Ordinal));
    }

    [Fact]
    public void A_manifest_without_the_tool_or_not_at_the_root_is_reported()
    {
        var problems = ToolManifestCheck.PinsInteractive("""{ "version": 1, "isRoot": false, "tools": { "dotnet-ef": { "version": "10.0.0", "commands": ["dotnet-ef"] } } }""", "sample").ToList();

        Assert.Equal(2, problems.Count);
        Assert.Contains(problems, p => p.StartsWith("sample: \"isRoot\" must be true", StringComparison.Ordinal));
        Assert.Contains("sample: no \"tools\".\"microsoft.dotnet-interactive\" (expected version 1.0.712001)", problems);
    }

    [Fact]
    public void A_manifest_that_is_not_json_is_reported_with_its_line()
    {
        var problem = Assert.Single(ToolManifestCheck.PinsInteractive("{\n  \"version\": 1,\n  \"tools\": {\n", "sample"));
        Assert.StartsWith("sample:4: not valid JSON", problem, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("test.sh")]
    [InlineData("setup.sh")]
    [InlineData("setup.ps1")]
    public void The_script_restores_the_pinned_tools(string script)
    {
        NoProblems(ToolManifestCheck.RestoresTools(File.ReadAllText(Repo.PathOf(script)), script));
    }

    [Theory]
    [InlineData("dotnet tool restore\n")]
    [InlineData("if ! dotnet tool restore; then\n  exit 2\nfi\n")]
    [InlineData("tool_args=(tool restore)\ndotnet \"${tool_args[@]}\" || true\n")]
    [InlineData("$toolArgs = @('tool', 'restore')\n& dotnet @toolArgs\n")]
    public void Each_form_of_restoring_counts(string script)
    {
        NoProblems(ToolManifestCheck.RestoresTools(script, "sample"));
    }

    [Theory]
    [InlineData("# dotnet tool restore\ndotnet build\n")]
    [InlineData("echo \"run dotnet tool restore first\"\n")]
    [InlineData("tool_args=(tool restore)\necho \"${tool_args[@]}\"\n")]
    [InlineData("dotnet tool list\n")]
    public void A_script_that_only_mentions_the_restore_is_reported(string script)
    {
        var problem = Assert.Single(ToolManifestCheck.RestoresTools(script, "sample"));
        Assert.StartsWith("sample: never runs `dotnet tool restore`", problem, StringComparison.Ordinal);
    }
}
