using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Integration;

/// <summary>`perflab kernel install|uninstall`: one command each, seen by Jupyter itself.</summary>
public class KernelCommandTests
{
    [Fact]
    public async Task Install_under_a_prefix_is_listed_by_jupyter_and_uninstall_removes_it()
    {
        using var prefix = new TempFolder();
        var jupyterPath = new Dictionary<string, string> { ["JUPYTER_PATH"] = Path.Combine(prefix.Path, "share", "jupyter") };

        var install = await CliProcess.RunAsync(["kernel", "install", "--prefix", prefix.Path]);
        Assert.True(install.ExitCode == 0, install.ToString());
        var spec = Path.Combine(prefix.Path, "share", "jupyter", "kernels", "perflab-csharp", "kernel.json");
        var json = await File.ReadAllTextAsync(spec);
        var listed = await JupyterPython.RunAsync(JupyterPython.Python, ["-m", "jupyter_client.kernelspecapp", "list"], jupyterPath, TimeSpan.FromMinutes(1));
        var uninstall = await CliProcess.RunAsync(["kernel", "uninstall", "--prefix", prefix.Path]);
        var again = await CliProcess.RunAsync(["kernel", "uninstall", "--prefix", prefix.Path]);

        Assert.Contains("\"kernel\",", json, StringComparison.Ordinal);
        Assert.Contains("\"{connection_file}\"", json, StringComparison.Ordinal);
        Assert.Contains("\"interrupt_mode\": \"message\"", json, StringComparison.Ordinal);
        Assert.True(listed.Output.Contains("perflab-csharp", StringComparison.Ordinal), listed.ToString());
        Assert.True(uninstall.ExitCode == 0, uninstall.ToString());
        Assert.False(File.Exists(spec), "uninstall left kernel.json behind");
        Assert.Contains("nothing to remove", again.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_kernel_whose_jupyter_parent_is_gone_ends_itself()
    {
        using var folder = new TempFolder();
        var ports = Enumerable.Range(0, 5).Select(_ => FreePort()).ToArray();
        var connection = folder.Write("kernel.json", $$"""
            {"transport": "tcp", "ip": "127.0.0.1", "shell_port": {{ports[0]}}, "iopub_port": {{ports[1]}}, "stdin_port": {{ports[2]}},
             "control_port": {{ports[3]}}, "hb_port": {{ports[4]}}, "key": "k", "signature_scheme": "hmac-sha256"}
            """);
        using var parent = CliProcess.StartProgram("sleep", ["3"]);
        using var kernel = CliProcess.Start(["kernel", "serve", connection], new Dictionary<string, string> { ["JPY_PARENT_PID"] = parent.Id.ToString(System.Globalization.CultureInfo.InvariantCulture) });

        var result = await CliProcess.CompleteAsync(kernel, TimeSpan.FromSeconds(30));

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.True(parent.HasExited, "the kernel ended before its parent did");
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }

    [Fact]
    public async Task Serving_without_a_connection_file_is_one_clear_message()
    {
        var result = await CliProcess.RunAsync(["kernel", "serve", "/no/such/connection.json"]);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("Jupyter connection file not found", result.Error, StringComparison.Ordinal);
        Assert.Contains("perflab kernel install", result.Error, StringComparison.Ordinal);
    }
}
