using System.Text.Json.Nodes;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>
/// A laptop in a workshop room running cells on the course kernel, driven by Debian's jupyter_client: each post names
/// the cell's notebook when the frontend said which (VS Code's cell URI in the execute_request's metadata, else Jupyter
/// Server's JPY_SESSION_NAME), and none otherwise; and on .NET Interactive started by Jupyter Server, the session's. The
/// room does not answer, so each post waits in the laptop's outbox, where the test reads it.
/// </summary>
public class KernelRoomNotebookTests(JupyterKernelspec kernelspec) : IClassFixture<JupyterKernelspec>
{
    [Fact]
    public async Task Posts_from_the_kernel_name_the_notebook_the_frontend_named_and_none_otherwise()
    {
        var home = TestHome.Prepare(TestHome.SharedRoot, "kernel-room-" + Guid.NewGuid().ToString("N")[..8]);
        var session = Path.Combine(Repo.Notebooks, "00-start-here.ipynb");
        var environment = kernelspec.Environment(home);
        environment["PERFLAB_ROOM"] = "http://127.0.0.1:9,AAAAA-AAAAA,ana";
        environment["JPY_SESSION_NAME"] = session;
        try
        {
            using var kernel = await JupyterDriver.StartAsync(environment, Repo.Root);
            var setup = await kernel.ExecuteAsync(SetupCell.For(Path.Combine(Repo.Root, "any.ipynb"), Repo.Root));
            Assert.True(setup.ReplyStatus == "ok", setup.ToString());
            async Task RunAsync(string type, string? cellId)
            {
                var cell = await kernel.ExecuteAsync(
                    $"public class {type} {{ [Benchmark] public int One() => 1; }}\nawait Lab.RunAsync<{type}>(runtimes: [\"net10.0\"])",
                    TimeSpan.FromMinutes(3),
                    cellId is null ? null : new JsonObject { ["cellId"] = cellId });
                Assert.True(cell.ReplyStatus == "ok", $"{cell}\n--- driver stderr\n{kernel.Stderr}");
            }

            // VS Code: the cell document's URI names the notebook, over the session's.
            await RunAsync("InVsCode", "vscode-notebook-cell:" + new Uri(Path.Combine(Repo.Notebooks, "jit", "01-tiering-and-pgo.ipynb")).AbsolutePath + "#W1sZmlsZQ%3D%3D");
            // JupyterLab: its cellId is a random id; the session's notebook.
            await RunAsync("InJupyterLab", "5f0c2d7e-8a5b-4c1e-9f3a-0b1d2c3e4f50");
            var posts = Directory.GetFiles(Path.Combine(home, "room", "outbox"), "*.json").Order(StringComparer.Ordinal)
                .Select(f => JsonNode.Parse(File.ReadAllText(f))!).ToArray();

            Assert.Equal(
                [("InVsCode", "notebooks/jit/01-tiering-and-pgo.ipynb"), ("InJupyterLab", "notebooks/00-start-here.ipynb")],
                posts.Select(p => ((string?)p["run"]!["results"]![0]!["type"], (string?)p["notebook"])));
        }
        finally
        {
            try
            {
                Directory.Delete(home, recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }

    [Fact]
    public async Task Posts_from_dotnet_interactive_name_the_notebook_jupyter_server_started_it_for()
    {
        using var spec = new InteractiveKernelspec();
        var home = TestHome.Prepare(TestHome.SharedRoot, "interactive-room-" + Guid.NewGuid().ToString("N")[..8]);
        var environment = spec.Environment();
        environment["PERFLAB_HOME"] = home;
        environment["PERFLAB_ROOM"] = "http://127.0.0.1:9,AAAAA-AAAAA,bo";
        environment["JPY_SESSION_NAME"] = Path.Combine(Repo.Notebooks, "00-start-here.ipynb");
        try
        {
            using var driver = await JupyterDriver.StartAsync(environment, Repo.Notebooks, InteractiveKernelspec.Name);
            var setup = await driver.ExecuteAsync(SetupCell.For(Path.Combine(Repo.Notebooks, "interactive-room.ipynb"), Repo.Root), TimeSpan.FromMinutes(2));
            Assert.True(setup.Errors.Count == 0 && setup.ReplyStatus == "ok", $"The setup cell failed:\n{setup}\n--- driver stderr\n{driver.Stderr}");
            var cell = await driver.ExecuteAsync("public class InInteractive { [Benchmark] public int One() => 1; }\nawait Lab.RunAsync<InInteractive>(runtimes: [\"net10.0\"])", TimeSpan.FromMinutes(3));
            Assert.True(cell.Errors.Count == 0 && cell.ReplyStatus == "ok", $"{cell}\n--- driver stderr\n{driver.Stderr}");

            var post = JsonNode.Parse(File.ReadAllText(Assert.Single(Directory.GetFiles(Path.Combine(home, "room", "outbox"), "*.json"))))!;

            Assert.Equal(("InInteractive", "notebooks/00-start-here.ipynb"), ((string?)post["run"]!["results"]![0]!["type"], (string?)post["notebook"]));
        }
        finally
        {
            try
            {
                Directory.Delete(home, recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }
}
