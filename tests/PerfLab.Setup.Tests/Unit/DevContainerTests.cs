using System.Text.Json;
using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Unit;

/// <summary>.devcontainer/devcontainer.json agrees with the repository; the bad samples prove each check bites.</summary>
public sealed class DevContainerTests
{
    private const string Where = ".devcontainer/devcontainer.json";

    private static string Text => File.ReadAllText(Repo.PathOf(Where));

    private static JsonDocument Real() => DevContainerCheck.Parse(Text, Where);

    private static JsonDocument Sample(string json) => DevContainerCheck.Parse(json, "sample");

    private static void NoProblems(IEnumerable<string> problems)
    {
        var list = problems.ToList();
        Assert.True(list.Count == 0, string.Join(Environment.NewLine, list));
    }

    [Fact]
    public void Devcontainer_json_parses_with_comments_and_trailing_commas()
    {
        using var json = Real();
        Assert.Equal(JsonValueKind.Object, json.RootElement.ValueKind);
    }

    [Fact]
    public void Image_is_the_dotnet_devcontainer_on_the_sdk_line_of_global_json()
    {
        using var json = Real();
        NoProblems(DevContainerCheck.Image(json.RootElement, Repo.GlobalJsonSdk(), Where));
    }

    [Fact]
    public void An_image_on_another_dotnet_line_is_reported()
    {
        using var json = Sample("""{ "image": "mcr.microsoft.com/devcontainers/dotnet:2-9.0-noble" }""");
        var problem = Assert.Single(DevContainerCheck.Image(json.RootElement, new Version(10, 0, 100), "sample"));
        Assert.Contains("carries .NET 9.0, but global.json pins SDK 10.0.100", problem, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_script_a_lifecycle_command_runs_exists_and_is_executable()
    {
        using var json = Real();
        NoProblems(DevContainerCheck.Commands(json.RootElement, Repo.Root, Where));
    }

    [Fact]
    public void Prebuilds_run_setup_sh()
    {
        // Codespaces prebuilds run onCreateCommand and updateContentCommand only: setup must be there.
        using var json = Real();
        var prebuilt = new[] { "onCreateCommand", "updateContentCommand" }
            .Where(p => json.RootElement.TryGetProperty(p, out _))
            .Select(p => json.RootElement.GetProperty(p).GetRawText());
        Assert.True(prebuilt.Any(c => c.Contains("./setup.sh", StringComparison.Ordinal)),
            $"{Where}: neither onCreateCommand nor updateContentCommand runs ./setup.sh, so a prebuild would not restore, build and provision.");
    }

    [Fact]
    public void Missing_and_non_executable_scripts_are_reported_in_every_command_form()
    {
        using var repo = new TempFolder();
        repo.Write("tools/plain.sh", "echo hi\n");
        using var json = Sample("""
            {
              "onCreateCommand": "./missing.sh --flag && echo done",
              "postCreateCommand": ["bash", "tools/absent.sh"],
              "postAttachCommand": { "welcome": ".devcontainer/gone.sh" },
              "updateContentCommand": "./tools/plain.sh",
            }
            """);

        var problems = DevContainerCheck.Commands(json.RootElement, repo.Path, "sample").ToList();

        Assert.Contains(problems, p => p.Contains("onCreateCommand runs ./missing.sh, which does not exist", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("postCreateCommand runs tools/absent.sh, which does not exist", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("postAttachCommand.welcome runs .devcontainer/gone.sh, which does not exist", StringComparison.Ordinal));
        if (!OperatingSystem.IsWindows())
        {
            Assert.Contains(problems, p => p.Contains("updateContentCommand runs ./tools/plain.sh, which is not executable", StringComparison.Ordinal));
        }
    }

    [Fact]
    public void Host_asks_for_at_least_4_cores_and_8_gb()
    {
        using var json = Real();
        NoProblems(DevContainerCheck.HostRequirements(json.RootElement, Where));
    }

    [Fact]
    public void A_two_core_host_is_reported()
    {
        using var json = Sample("""{ "hostRequirements": { "cpus": 2, "memory": "8gb" } }""");
        var problem = Assert.Single(DevContainerCheck.HostRequirements(json.RootElement, "sample"));
        Assert.Contains("hostRequirements.cpus must be a number >= 4 (it is 2)", problem, StringComparison.Ordinal);
    }

    [Fact]
    public void Extensions_are_marketplace_ids_with_an_optional_exact_version()
    {
        using var json = Real();
        NoProblems(DevContainerCheck.Extensions(json.RootElement, Where));
    }

    [Fact]
    public void A_floating_or_malformed_extension_version_is_reported()
    {
        using var json = Sample("""{ "customizations": { "vscode": { "extensions": ["ms-toolsai.jupyter@latest", "csharp", "ms-dotnettools.csharp@2.140.8"] } } }""");
        var problems = DevContainerCheck.Extensions(json.RootElement, "sample").ToList();
        Assert.Equal(2, problems.Count);
        Assert.Contains(problems, p => p.Contains("\"ms-toolsai.jupyter@latest\"", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("\"csharp\"", StringComparison.Ordinal));
    }

    [Fact]
    public void Any_dotnet_8_or_9_version_it_names_is_the_pinned_one()
    {
        NoProblems(Repo.RuntimeVersionMismatches(Text, Where));
    }

    [Fact]
    public void A_stale_runtime_version_is_reported_with_its_line()
    {
        var pinned8 = PerfLab.Runtimes.RuntimeCatalog.Find("net8.0").Version;
        var text = $"{{\n  // runtimes: {pinned8}\n  \"x\": \"dotnet 8.0.1 and 9.0.0\"\n}}";
        var problems = Repo.RuntimeVersionMismatches(text, "sample").ToList();
        Assert.Equal(2, problems.Count);
        Assert.Contains(problems, p => p.StartsWith("sample:3: .NET 8.0.1 is not the pinned " + pinned8, StringComparison.Ordinal));
        Assert.Contains(problems, p => p.StartsWith("sample:3: .NET 9.0.0 is not the pinned", StringComparison.Ordinal));
    }
}
