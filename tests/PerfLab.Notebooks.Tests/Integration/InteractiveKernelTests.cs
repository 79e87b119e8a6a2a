using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// .NET Interactive (the pinned dotnet-interactive tool, Polyglot Notebooks' engine) driven cell by cell by a real
/// Jupyter client, for what a reader does beyond the notebooks as committed: a benchmark cell no cache has seen, a
/// [GeneratedRegex] cell edited and run again, their own Plotly.NET chart. One kernel for the class, after the
/// setup cell; each test declares types of its own.
/// </summary>
public class InteractiveKernelTests(InteractiveKernelTests.Kernel kernel) : IClassFixture<InteractiveKernelTests.Kernel>
{
    [Fact]
    public void The_setup_cell_names_the_tool_and_shows_its_summary_as_html()
    {
        var html = kernel.Setup.ResultHtml ?? "";

        Assert.True(kernel.Setup.Errors.Count == 0 && html.Contains("class=\"perflab-setup\"", StringComparison.Ordinal), $"The setup cell did not show its summary as HTML:\n{kernel.Setup}");
        Assert.Contains($".NET Interactive {kernel.Spec.Version} C# kernel", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_benchmark_cell_that_no_cache_has_seen_runs_on_every_runtime_and_shows_its_table()
    {
        var fresh = Guid.NewGuid().ToString("N")[..8];
        var cell = await kernel.Driver.ExecuteAsync($$"""
            public class Unseen{{fresh}}
            {
                private readonly int[] _values = Enumerable.Range(0, 64).ToArray();
                [Benchmark] public int Total() => _values.Sum() + {{fresh.Length}};
            }
            await Lab.RunAsync<Unseen{{fresh}}>()
            """, TimeSpan.FromMinutes(4));

        var progress = string.Concat(cell.Outputs.Where(o => o.Type == "stream").Select(o => o.Text));
        Assert.True(cell.Errors.Count == 0 && cell.ReplyStatus == "ok", $"The cell failed:\n{cell}\n--- driver stderr\n{kernel.Driver.Stderr}");
        Assert.DoesNotContain("cached result", progress, StringComparison.Ordinal);
        foreach (var runtime in new[] { "net8.0", "net9.0", "net10.0" })
        {
            Assert.True(progress.Contains($"{runtime} case 1/1 Total done", StringComparison.Ordinal), $"No measured case on {runtime}:\n{progress}");
        }

        Assert.True((cell.ResultHtml ?? "").Contains("class=\"perflab-results\"", StringComparison.Ordinal), $"No results table:\n{cell}");
    }

    [Fact]
    public async Task A_quick_cell_shows_its_table_after_the_first_round_and_updates_it_in_place_before_the_execute_reply()
    {
        var cell = await kernel.Driver.ExecuteAsync("""
            public class LiveInInteractive { [Benchmark] public int Sum() { var s = 0; for (var i = 0; i < 64; i++) { s += i; } return s; } }
            await Lab.RunAsync<LiveInInteractive>(runtimes: ["net9.0", "net10.0"], mode: "quick", launches: 3, force: true)
            """, TimeSpan.FromMinutes(5));

        cell.AssertTableShownAndUpdatedBeforeReply(kernel.Driver.Stderr);
    }

    [Fact]
    public async Task A_class_using_each_default_namespace_without_a_using_runs_in_the_cell_and_through_lab()
    {
        Assert.True(DefaultNamespaceUses.CoversTheList);
        var name = "EveryDefaultNamespace" + Guid.NewGuid().ToString("N")[..8];
        var cell = await kernel.Driver.ExecuteAsync($$"""
            {{DefaultNamespaceUses.Class(name)}}
            var direct = new {{name}}().Use();
            var run = await Lab.RunAsync<{{name}}>(runtimes: ["net10.0"]);
            $"{direct} {run.Mode} {run.HasErrors}"
            """, TimeSpan.FromMinutes(2));

        Assert.True(cell.Errors.Count == 0 && cell.ReplyStatus == "ok", $"The cell failed:\n{cell}\n--- driver stderr\n{kernel.Driver.Stderr}");
        Assert.Contains($"{DefaultNamespaceUses.Sum} Smoke False", cell.ResultText ?? cell.ResultHtml ?? "", StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_benchmark_case_that_throws_writes_the_case_and_its_reason_as_an_error_line_on_stderr()
    {
        var cell = await kernel.Driver.ExecuteAsync($$"""
            using System.Text.RegularExpressions;
            public class UnclosedPattern
            {
                private readonly Regex _pattern = new("(unclosed");
                [Benchmark] public bool Match() => _pattern.IsMatch("abc {{Guid.NewGuid():N}}");
            }
            await Lab.RunAsync<UnclosedPattern>(runtimes: ["net10.0"])
            """, TimeSpan.FromMinutes(2));

        var stderr = string.Concat(cell.Outputs.Where(o => o.Type == "stream" && o.Name == "stderr").Select(o => o.Text));
        Assert.True(
            stderr.Contains("error: benchmark case UnclosedPattern.Match on net10.0: System.Text.RegularExpressions.RegexParseException", StringComparison.Ordinal),
            $"No error line on stderr for the failed case:\n{cell}\n--- driver stderr\n{kernel.Driver.Stderr}");
    }

    [Fact]
    public async Task A_generated_regex_cell_runs_and_run_again_with_another_pattern_replaces_its_type_for_later_cells()
    {
        static string Declare(string pattern) => $$"""
            using System.Text.RegularExpressions;
            public static partial class Spelled
            {
                [GeneratedRegex(@"{{pattern}}")]
                public static partial Regex Words();
            }
            Spelled.Words().Count("ab cd ef")
            """;

        var words = await kernel.Driver.ExecuteAsync(Declare(@"\w+"));
        var letters = await kernel.Driver.ExecuteAsync(Declare(@"\w"));
        var later = await kernel.Driver.ExecuteAsync("Spelled.Words().Count(\"ab cd\") + \" \" + Spelled.Words().GetType().FullName");

        Assert.True(words.Errors.Count == 0 && (words.ResultHtml ?? words.ResultText ?? "").Contains(">3<", StringComparison.Ordinal), $"\\w+ should find 3 words:\n{words}\n--- driver stderr\n{kernel.Driver.Stderr}");
        Assert.True(letters.Errors.Count == 0 && (letters.ResultHtml ?? "").Contains(">6<", StringComparison.Ordinal), $"The cell run again with \\w should find 6 letters:\n{letters}");
        var text = later.ResultText ?? later.ResultHtml ?? "";
        Assert.True(text.Contains("4 System.Text.RegularExpressions.Generated.", StringComparison.Ordinal), $"A later cell should use the generated \\w (4 letters in \"ab cd\"):\n{later}");
    }

    [Fact]
    public async Task An_invalid_generated_regex_pattern_is_one_error_with_the_parsers_message_and_the_next_cell_runs()
    {
        var broken = await kernel.Driver.ExecuteAsync("""
            using System.Text.RegularExpressions;
            public static partial class Unclosed
            {
                [GeneratedRegex(@"(unclosed")]
                public static partial Regex Words();
            }
            """);
        var after = await kernel.Driver.ExecuteAsync("40 + 2");

        Assert.True(broken.Errors.Count == 1, $"Expected one error output:\n{broken}");
        var error = broken.Errors[0].Evalue + "\n" + string.Join("\n", broken.Errors[0].Traceback);
        Assert.Matches(@"\(4,5\): error SYSLIB1042: .*Not enough \)'s", error);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal); // no stack trace
        Assert.True(after.Errors.Count == 0 && (after.ResultHtml ?? after.ResultText ?? "").Contains("42", StringComparison.Ordinal), $"The next cell did not run:\n{after}");
    }

    [Fact]
    public async Task A_readers_plotly_chart_displays_with_the_courses_plotly_js_offline()
    {
        var chart = await kernel.Driver.ExecuteAsync("""
            using Plotly.NET.CSharp;
            Chart.Column<int, string, string>(new[] { 3, 1, 2 }, Keys: new[] { "one", "two", "three" }, Name: "made up")
            """);

        var html = chart.ResultHtml ?? "";
        Assert.True(chart.Errors.Count == 0, $"The chart cell failed:\n{chart}\n--- driver stderr\n{kernel.Driver.Stderr}");
        Assert.True(html.Contains("Plotly.newPlot", StringComparison.Ordinal) && html.Contains("\"made up\"", StringComparison.Ordinal), $"No chart drawn from the cell's figure:\n{html[..Math.Min(html.Length, 2000)]}");
        Assert.DoesNotContain("cdn.plot.ly", html, StringComparison.Ordinal);
        Assert.DoesNotContain("dni-treeview", html, StringComparison.Ordinal); // .NET Interactive's own object view
    }

    [Fact]
    public async Task Interrupting_a_running_quick_benchmark_cell_leaves_no_process_behind_and_the_next_cell_runs()
    {
        // A kernel and a home of its own: the home's path marks this test's benchmark processes in /proc/*/cmdline,
        // and an interrupt that went wrong cannot spoil the class's kernel.
        var home = Path.Combine(Path.GetTempPath(), "perflab-tests", "interactive-interrupt-home-" + Guid.NewGuid().ToString("N")[..8]);
        var environment = kernel.Spec.Environment();
        environment["PERFLAB_HOME"] = home;
        try
        {
            using var driver = await JupyterDriver.StartAsync(environment, Repo.Notebooks, InteractiveKernelspec.Name);
            var setup = await driver.ExecuteAsync(SetupCell.For(Path.Combine(Repo.Notebooks, "interactive-interrupt.ipynb"), Repo.Root), TimeSpan.FromMinutes(2));
            Assert.True(setup.Errors.Count == 0 && setup.ReplyStatus == "ok", $"The setup cell failed:\n{setup}\n--- driver stderr\n{driver.Stderr}");

            var msgId = await driver.SendExecuteAsync("""
                public class EndlessQuick { [Benchmark] public void Spin() { while (true) { } } }
                await Lab.RunAsync<EndlessQuick>(runtimes: ["net10.0"], mode: "quick", caseTimeoutSeconds: 120)
                """);
            var hosts = await ProcessWaits.PollAsync(() => CliProcess.ProcessesMentioning(home).Where(p => p.Contains("PerfLab.Host", StringComparison.Ordinal)).ToList(), found => found.Count > 0, TimeSpan.FromSeconds(90));
            Assert.True(hosts.Count > 0, $"No PerfLab.Host process mentioning {home} appeared within 90 s.\n--- driver stderr\n{driver.Stderr}");

            // The cell ends 0.1 to 0.2 s after the interrupt at load average 32 to 36 on 2 cores (docs/notebooks.md); 60 s only bounds a hang.
            await driver.InterruptAsync();
            var cell = await driver.CollectAsync(msgId, TimeSpan.FromSeconds(60));
            var left = await ProcessWaits.PollAsync(() => CliProcess.ProcessesMentioning(home), found => found.Count == 0, TimeSpan.FromSeconds(5));
            var after = await driver.ExecuteAsync("40 + 2", TimeSpan.FromSeconds(60));

            Assert.True(cell.Idle, $"The interrupted cell did not end within 60 s:\n{cell}\n--- driver stderr\n{driver.Stderr}");
            Assert.True(cell.Errors.Count == 1, $"The interrupted cell should end with one error:\n{cell}");
            Assert.True(left.Count == 0, $"Processes left behind after the interrupt:\n{string.Join("\n", left)}\n--- the cell\n{cell}");
            Assert.True(after.Errors.Count == 0 && (after.ResultHtml ?? after.ResultText ?? "").Contains("42", StringComparison.Ordinal), $"The next cell did not run:\n{after}\n--- driver stderr\n{driver.Stderr}");
        }
        finally
        {
            foreach (var line in CliProcess.ProcessesMentioning(home))
            {
                ProcessWaits.KillQuietly(int.Parse(line[..line.IndexOf(':', StringComparison.Ordinal)], System.Globalization.CultureInfo.InvariantCulture));
            }

            try
            {
                Directory.Delete(home, recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }

    /// <summary>One .NET Interactive kernel for the class, started in the notebooks' folder, the setup cell run.</summary>
    public sealed class Kernel : IAsyncLifetime
    {
        public InteractiveKernelspec Spec { get; } = new();

        public JupyterDriver Driver { get; private set; } = null!;

        public JupyterCell Setup { get; private set; } = null!;

        public async Task InitializeAsync()
        {
            Driver = await JupyterDriver.StartAsync(Spec.Environment(), Repo.Notebooks, InteractiveKernelspec.Name);
            Setup = await Driver.ExecuteAsync(SetupCell.For(Path.Combine(Repo.Notebooks, "interactive-tests.ipynb"), Repo.Root), TimeSpan.FromMinutes(2));
        }

        public Task DisposeAsync()
        {
            Driver?.Dispose();
            Spec.Dispose();
            return Task.CompletedTask;
        }
    }
}
