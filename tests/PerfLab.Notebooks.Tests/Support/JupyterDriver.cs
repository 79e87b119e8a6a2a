using System.Diagnostics;
using System.Text;
using System.Text.Json.Nodes;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>One output of a cell as jupyter_client saw it on iopub (nbformat's shape, text as one string).</summary>
public sealed record JupyterOutput(string Type, JsonObject Json)
{
    public string? Name => (string?)Json["name"];

    public string Text => (string?)Json["text"] ?? "";

    public string? Ename => (string?)Json["ename"];

    public string Evalue => (string?)Json["evalue"] ?? "";

    public IReadOnlyList<string> Traceback => Json["traceback"]?.AsArray().Select(t => (string?)t ?? "").ToList() ?? [];

    public string? Data(string mime) => (string?)Json["data"]?[mime];

    public double At => (double?)Json["at"] ?? 0;

    /// <summary>The display_id of a display_data or update_display_data (its transient), else null.</summary>
    public string? DisplayId => (string?)Json["display_id"];

    /// <summary>When the kernel sent it (its header's date).</summary>
    public DateTimeOffset Sent => DateTimeOffset.Parse((string)Json["sent"]!, System.Globalization.CultureInfo.InvariantCulture);

    public override string ToString() => Json.ToJsonString();
}

/// <summary>A cell run through jupyter_client: its iopub outputs until status idle, and its execute_reply.</summary>
public sealed record JupyterCell(bool Idle, double Seconds, IReadOnlyList<JupyterOutput> Outputs, JsonObject? Reply)
{
    public IReadOnlyList<JupyterOutput> Errors => Outputs.Where(o => o.Type == "error").ToList();

    public string? ResultText => Outputs.FirstOrDefault(o => o.Type == "execute_result")?.Data("text/plain");

    public string? ResultHtml => Outputs.FirstOrDefault(o => o.Type == "execute_result")?.Data("text/html");

    public string? ReplyStatus => (string?)Reply?["status"];

    /// <summary>When the kernel sent the execute_reply (its header's date); null without a reply.</summary>
    public DateTimeOffset? ReplySent => Reply?["sent"] is { } sent ? DateTimeOffset.Parse((string)sent!, System.Globalization.CultureInfo.InvariantCulture) : null;

    /// <summary>
    /// Fails unless the cell ended "ok" after showing a results table with a display_id and updating that display with a
    /// table before its execute_reply: the table as it grows, in either kernel.
    /// </summary>
    public void AssertTableShownAndUpdatedBeforeReply(string stderr)
    {
        Assert.True(ReplyStatus == "ok" && ReplySent is not null, $"The benchmark cell failed:\n{this}\n--- driver stderr\n{stderr}");
        static bool IsTable(JupyterOutput o) => o.Data("text/html")?.Contains("class=\"perflab-results\"", StringComparison.Ordinal) == true;
        var shown = Outputs.FirstOrDefault(o => o.Type == "display_data" && o.DisplayId is not null && IsTable(o));
        Assert.True(shown is not null, $"No table was displayed with a display_id while the cell ran:\n{this}");
        Assert.True(
            Outputs.Any(o => o.Type == "update_display_data" && o.DisplayId == shown.DisplayId && IsTable(o) && o.Sent < ReplySent),
            $"The table displayed as {shown.DisplayId} was never updated with a table before the execute_reply:\n{this}");
    }

    public override string ToString() =>
        $"idle {Idle} after {Seconds} s, reply {Reply?.ToJsonString() ?? "(none)"}\n" + string.Join("\n", Outputs.Select(o => "  " + o));

    internal static JupyterCell From(JsonNode result) => new(
        (bool?)result["idle"] ?? false,
        (double?)result["seconds"] ?? 0,
        result["outputs"]!.AsArray().Select(o => new JupyterOutput((string)o!["output_type"]!, o.AsObject())).ToList(),
        result["reply"] as JsonObject);
}

/// <summary>
/// A real Jupyter client (jupyter_client's KernelManager and BlockingKernelClient, in jupyter/kernel_driver.py)
/// talking to the perflab-csharp kernel. Each method sends one JSON command and reads its one-line answer;
/// failures carry the driver's stderr. Disposing ends the driver and, with its process tree, the kernel.
/// </summary>
public sealed class JupyterDriver : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _stderr = new();

    private JupyterDriver(Process process)
    {
        _process = process;
        _process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (_stderr)
                {
                    _stderr.AppendLine(e.Data);
                }
            }
        };
        _process.BeginErrorReadLine();
    }

    /// <summary>What the start command answered: the kernel's pid and the kernelspec jupyter_client chose.</summary>
    public JsonNode Started { get; private set; } = new JsonObject();

    public int KernelPid => (int)Started["pid"]!;

    /// <summary>The driver's stderr so far (jupyter_client's and the kernel's own diagnostics).</summary>
    public string Stderr
    {
        get
        {
            lock (_stderr)
            {
                return _stderr.ToString();
            }
        }
    }

    /// <summary>Starts a driver and, through it, the kernel (its working folder <paramref name="workingDirectory"/>), and waits until it is ready.</summary>
    public static async Task<JupyterDriver> StartAsync(IReadOnlyDictionary<string, string> environment, string workingDirectory, string kernelName = "perflab-csharp")
    {
        var process = JupyterPython.Start(JupyterPython.Python, [JupyterPython.Script("kernel_driver.py")], environment, redirectInput: true);
        var driver = new JupyterDriver(process);
        try
        {
            driver.Started = await driver.SendAsync(new JsonObject { ["op"] = "start", ["cwd"] = workingDirectory, ["kernel"] = kernelName, ["timeout"] = 60 }, TimeSpan.FromSeconds(90)).ConfigureAwait(false);
        }
        catch
        {
            driver.Dispose();
            throw;
        }

        return driver;
    }

    /// <summary>Runs a cell and waits until the kernel is idle for it.</summary>
    /// <param name="code">The cell's code.</param>
    /// <param name="timeout">How long to wait for idle.</param>
    /// <param name="metadata">The execute_request's metadata, as a frontend that names its cells sends it.</param>
    public async Task<JupyterCell> ExecuteAsync(string code, TimeSpan? timeout = null, JsonObject? metadata = null)
    {
        var limit = timeout ?? TimeSpan.FromMinutes(2);
        var command = new JsonObject { ["op"] = "execute", ["code"] = code, ["timeout"] = limit.TotalSeconds };
        if (metadata is not null)
        {
            command["metadata"] = metadata;
        }

        return JupyterCell.From(await SendAsync(command, limit + TimeSpan.FromSeconds(30)).ConfigureAwait(false));
    }

    /// <summary>Sends an execute_request without waiting; returns its msg_id for <see cref="CollectAsync"/>.</summary>
    public async Task<string> SendExecuteAsync(string code) =>
        (string)(await SendAsync(new JsonObject { ["op"] = "send", ["code"] = code }, TimeSpan.FromSeconds(30)).ConfigureAwait(false))["msg_id"]!;

    /// <summary>The outputs of a cell sent with <see cref="SendExecuteAsync"/>, until the kernel is idle for it or <paramref name="timeout"/>.</summary>
    public async Task<JupyterCell> CollectAsync(string msgId, TimeSpan timeout) =>
        JupyterCell.From(await SendAsync(new JsonObject { ["op"] = "collect", ["msg_id"] = msgId, ["timeout"] = timeout.TotalSeconds }, timeout + TimeSpan.FromSeconds(30)).ConfigureAwait(false));

    /// <summary>km.interrupt_kernel(): an interrupt_request on the control channel (interrupt_mode "message").</summary>
    public Task InterruptAsync() => SendAsync(new JsonObject { ["op"] = "interrupt" }, TimeSpan.FromSeconds(30));

    public async Task<JsonObject> KernelInfoAsync() => (await SendAsync(new JsonObject { ["op"] = "kernel_info" }, TimeSpan.FromSeconds(60)).ConfigureAwait(false)).AsObject();

    public async Task<JsonObject> CompleteAsync(string code) => (await SendAsync(new JsonObject { ["op"] = "complete", ["code"] = code, ["cursor_pos"] = code.Length }, TimeSpan.FromSeconds(60)).ConfigureAwait(false)).AsObject();

    public async Task<JsonObject> IsCompleteAsync(string code) => (await SendAsync(new JsonObject { ["op"] = "is_complete", ["code"] = code }, TimeSpan.FromSeconds(60)).ConfigureAwait(false)).AsObject();

    /// <summary>km.shutdown_kernel(): answers pid, alive, returncode and shutdown_status (ShutdownRequest when the kernel left by itself).</summary>
    public async Task<JsonObject> ShutdownAsync() => (await SendAsync(new JsonObject { ["op"] = "shutdown" }, TimeSpan.FromSeconds(60)).ConfigureAwait(false)).AsObject();

    private async Task<JsonNode> SendAsync(JsonObject command, TimeSpan timeout)
    {
        await _process.StandardInput.WriteLineAsync(command.ToJsonString()).ConfigureAwait(false);
        await _process.StandardInput.FlushAsync().ConfigureAwait(false);
        using var limit = new CancellationTokenSource(timeout);
        string? line;
        try
        {
            line = await _process.StandardOutput.ReadLineAsync(limit.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            throw new TimeoutException($"The Jupyter driver did not answer {command["op"]} within {timeout}.\n--- driver stderr\n{Stderr}");
        }

        if (line is null)
        {
            await Task.Delay(200).ConfigureAwait(false); // Let stderr drain.
            throw new InvalidOperationException($"The Jupyter driver ended before answering {command["op"]}.\n--- driver stderr\n{Stderr}");
        }

        var answer = JsonNode.Parse(line)!;
        if ((bool?)answer["ok"] != true)
        {
            throw new InvalidOperationException($"The Jupyter driver failed on {command["op"]}:\n{answer["error"]}\n--- driver stderr\n{Stderr}");
        }

        return answer["result"] ?? new JsonObject();
    }

    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.StandardInput.Close(); // The driver shuts its kernel down at end of input.
                if (!_process.WaitForExit(TimeSpan.FromSeconds(10)))
                {
                    _process.Kill(entireProcessTree: true);
                    _process.WaitForExit(TimeSpan.FromSeconds(5));
                }
            }
        }
        catch (InvalidOperationException)
        {
        }
        catch (IOException)
        {
        }

        _process.Dispose();
    }
}
