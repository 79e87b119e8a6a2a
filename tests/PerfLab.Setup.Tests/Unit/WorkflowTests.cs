using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Unit;

/// <summary>Every workflow in .github/workflows agrees with the repository; the bad samples prove each check bites.</summary>
public sealed class WorkflowTests
{
    private static void NoProblems(IEnumerable<string> problems)
    {
        var list = problems.ToList();
        Assert.True(list.Count == 0, string.Join(Environment.NewLine, list));
    }

    private static IEnumerable<(string File, string Text)> Workflows()
    {
        var files = WorkflowCheck.Files();
        Assert.True(files.Count > 0, "No workflow in .github/workflows (expected at least reference.yml).");
        return files.Select(f => (f, File.ReadAllText(Repo.PathOf(f))));
    }

    [Fact]
    public void Every_workflow_parses_as_yaml()
    {
        foreach (var (file, text) in Workflows())
        {
            Assert.NotNull(WorkflowCheck.Parse(text, file));
        }
    }

    [Fact]
    public void Setup_dotnet_installs_the_sdk_of_global_json()
    {
        var sdk = Repo.GlobalJsonSdk();
        NoProblems(Workflows().SelectMany(w => WorkflowCheck.SetupDotnet(WorkflowCheck.Parse(w.Text, w.File), sdk, w.File)));
    }

    [Fact]
    public void Setup_dotnet_on_another_sdk_line_or_without_a_version_is_reported()
    {
        var root = WorkflowCheck.Parse("""
            jobs:
              a:
                steps:
                  - uses: actions/setup-dotnet@v5
                    with:
                      dotnet-version: 9.0.x
                  - uses: actions/setup-dotnet@v5
                  - uses: actions/setup-dotnet@v5
                    with:
                      dotnet-version: |
                        10.0.x
            """, "sample.yml");

        var problems = WorkflowCheck.SetupDotnet(root, new Version(10, 0, 100), "sample.yml").ToList();

        Assert.Equal(2, problems.Count);
        Assert.StartsWith("sample.yml:4: job a, actions/setup-dotnet@v5: dotnet-version 9.0.x is not on the line", problems[0], StringComparison.Ordinal);
        Assert.StartsWith("sample.yml:7: job a, actions/setup-dotnet@v5: names no SDK", problems[1], StringComparison.Ordinal);
    }

    [Fact]
    public void Scripts_and_projects_that_run_steps_name_exist()
    {
        NoProblems(Workflows().SelectMany(w => WorkflowCheck.RunSteps(WorkflowCheck.Parse(w.Text, w.File), Repo.Root, w.File)));
    }

    [Fact]
    public void The_reference_workflow_sets_up_with_both_scripts_and_runs_the_cli_project()
    {
        // Guards the checks above against passing because they found nothing to check.
        var text = File.ReadAllText(Repo.PathOf(".github/workflows/reference.yml"));
        var runs = WorkflowCheck.Steps(WorkflowCheck.Parse(text, "reference.yml"))
            .Select(s => s.Step.Children.TryGetValue(new YamlDotNet.RepresentationModel.YamlScalarNode("run"), out var r) ? r.ToString() : "")
            .ToList();
        Assert.Contains(runs, r => r.StartsWith("./setup.sh --no-kernel", StringComparison.Ordinal));
        Assert.Contains(runs, r => r.StartsWith("./setup.ps1 -NoKernel", StringComparison.Ordinal));
        Assert.Contains(runs, r => r.Contains("dotnet run --project helpers/PerfLab.Cli -- reference", StringComparison.Ordinal));
    }

    [Fact]
    public void The_site_workflow_builds_the_site_with_the_cli_on_pull_requests_and_deploys_it_from_main_only()
    {
        var text = File.ReadAllText(Repo.PathOf(".github/workflows/site.yml"));
        var root = WorkflowCheck.Parse(text, "site.yml");
        var runs = WorkflowCheck.Steps(root)
            .Select(s => s.Step.Children.TryGetValue(new YamlDotNet.RepresentationModel.YamlScalarNode("run"), out var r) ? r.ToString() : "")
            .ToList();
        Assert.Contains(runs, r => r.StartsWith("./setup.sh --no-kernel", StringComparison.Ordinal));
        Assert.Contains(runs, r => r.Contains("dotnet run --project helpers/PerfLab.Cli -- site --out artifacts/site", StringComparison.Ordinal));
        var on = (YamlDotNet.RepresentationModel.YamlMappingNode)root.Children[new YamlDotNet.RepresentationModel.YamlScalarNode("on")];
        Assert.True(on.Children.ContainsKey(new YamlDotNet.RepresentationModel.YamlScalarNode("pull_request")), "site.yml should build on pull requests");
        Assert.True(on.Children.ContainsKey(new YamlDotNet.RepresentationModel.YamlScalarNode("push")), "site.yml should build on a push to main");
        Assert.Contains("uses: actions/upload-pages-artifact@", text, StringComparison.Ordinal);
        Assert.Contains("if: github.event_name == 'push' && github.ref == 'refs/heads/main'", text, StringComparison.Ordinal);
        Assert.Contains("uses: actions/deploy-pages@", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Missing_scripts_and_projects_are_reported()
    {
        using var repo = new TempFolder();
        repo.Write("plain.sh", "echo hi\n");
        repo.Write("setup.ps1", "Write-Host hi\n");
        var root = WorkflowCheck.Parse("""
            jobs:
              a:
                steps:
                  - run: ./nowhere.sh --flag
                  - run: pwsh ./setup.ps1 -NoKernel
                  - shell: pwsh
                    run: ./missing.ps1
                  - run: |
                      echo first
                      dotnet run --project helpers/Nope -- reference --out x
                  - run: ./plain.sh
            """, "sample.yml");

        var problems = WorkflowCheck.RunSteps(root, repo.Path, "sample.yml").ToList();

        Assert.Contains("sample.yml:4: job a: runs ./nowhere.sh, which does not exist", problems);
        Assert.Contains("sample.yml:7: job a: runs ./missing.ps1, which does not exist", problems);
        Assert.Contains("sample.yml:8: job a: dotnet run --project helpers/Nope: no such project", problems);
        Assert.DoesNotContain(problems, p => p.Contains("setup.ps1", StringComparison.Ordinal));
        if (!OperatingSystem.IsWindows())
        {
            Assert.Contains(problems, p => p.StartsWith("sample.yml:11: job a: runs ./plain.sh, which is not executable", StringComparison.Ordinal));
        }
    }

    [Fact]
    public void Package_versions_written_in_workflows_are_the_pinned_ones()
    {
        var pinned = Repo.PackageVersions();
        NoProblems(Workflows().SelectMany(w => WorkflowCheck.PackageVersions(w.Text, pinned, w.File)));
    }

    [Fact]
    public void A_package_version_that_differs_from_directory_packages_props_is_reported()
    {
        var pinned = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase) { ["Microsoft.Playwright"] = "1.64.1" };
        const string text = "steps:\n  - run: dotnet tool install --global microsoft.playwright --version 1.50.0\n  - run: dotnet add package Other --version 2.0.0\n";

        var problems = WorkflowCheck.PackageVersions(text, pinned, "sample.yml").ToList();

        Assert.Equal(
            ["sample.yml:2: microsoft.playwright 1.50.0, but Directory.Packages.props pins 1.64.1",
             "sample.yml:3: Other 2.0.0 is not pinned in Directory.Packages.props (versions live there)"],
            problems);
    }
}
