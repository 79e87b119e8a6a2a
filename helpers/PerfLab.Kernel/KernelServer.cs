using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json.Nodes;
using System.Threading.Channels;
using NetMQ;
using NetMQ.Sockets;
using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Execution;
using PerfLab.Runtimes;
using PerfLab.Views.Html;

namespace PerfLab.Kernel;

/// <summary>
/// The course's C# Jupyter kernel: the Jupyter messaging protocol (5.3) on ZeroMQ sockets (NetMQ), over
/// a <see cref="NotebookSession"/>. Every socket is used from one poller thread; cells run one at a time
/// on a worker, so interrupts, completions and heartbeats are answered while a cell runs.
/// </summary>
public sealed class KernelServer : IDisposable
{
    private readonly ConnectionInfo _connection;
    private readonly byte[] _key;
    private readonly string _session = Guid.NewGuid().ToString("N");
    private readonly NotebookSession _cells;
    private readonly RouterSocket _shell = new();
    private readonly RouterSocket _control = new();
    private readonly RouterSocket _stdin = new();
    private readonly PublisherSocket _iopub = new();
    private readonly ResponseSocket _heartbeat = new();
    private readonly NetMQQueue<(NetMQSocket Socket, WireMessage Message)> _outbox = new();
    private readonly NetMQPoller _poller;
    private readonly Channel<WireMessage> _executeQueue = Channel.CreateUnbounded<WireMessage>(new() { SingleReader = true });
    private readonly TaskCompletionSource _stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private CancellationTokenSource? _running;
    private readonly Lock _runningGate = new();

    // The frontend's id of the cell whose output holds plotly.js, when the frontend names cells.
    private string? _plotlyCarrier;

    /// <summary>Creates the kernel for a Jupyter connection file; nothing is bound until <see cref="RunAsync"/>.</summary>
    /// <param name="connection">Ports and key.</param>
    /// <param name="workingDirectory">Where relative paths in cells start (Jupyter starts kernels in the notebook's folder).</param>
    public KernelServer(ConnectionInfo connection, string workingDirectory)
    {
        ArgumentNullException.ThrowIfNull(connection);
        _connection = connection;
        _key = Encoding.UTF8.GetBytes(connection.Key);
        _cells = new NotebookSession(workingDirectory);
        _poller = [_shell, _control, _stdin, _heartbeat, _outbox];
    }

    /// <summary>Binds the sockets and serves until a shutdown request (or <paramref name="cancellationToken"/>).</summary>
    /// <param name="cancellationToken">Stops the kernel.</param>
    public async Task RunAsync(CancellationToken cancellationToken = default)
    {
        _shell.Bind(_connection.Endpoint(_connection.ShellPort));
        _control.Bind(_connection.Endpoint(_connection.ControlPort));
        _stdin.Bind(_connection.Endpoint(_connection.StdinPort));
        _iopub.Bind(_connection.Endpoint(_connection.IopubPort));
        _heartbeat.Bind(_connection.Endpoint(_connection.HeartbeatPort));

        _heartbeat.ReceiveReady += (_, e) => e.Socket.SendMultipartMessage(e.Socket.ReceiveMultipartMessage());
        _shell.ReceiveReady += (_, e) => OnRequest(_shell, e.Socket.ReceiveMultipartMessage());
        _control.ReceiveReady += (_, e) => OnRequest(_control, e.Socket.ReceiveMultipartMessage());
        _stdin.ReceiveReady += (_, e) => e.Socket.ReceiveMultipartMessage(); // Cells cannot read input; nothing to answer.
        _outbox.ReceiveReady += (_, e) =>
        {
            while (e.Queue.TryDequeue(out var item, TimeSpan.Zero))
            {
                item.Socket.SendMultipartMessage(item.Message.ToFrames(_key));
            }
        };
        _poller.RunAsync("perflab-kernel");

        // Ctrl+C at a terminal, or a frontend that interrupts by signal: stop the cell, not the kernel.
        using var sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, context =>
        {
            context.Cancel = true;
            Interrupt();
        });

        Publish("status", new JsonObject { ["execution_state"] = "starting" }, null);
        _ = _cells.WarmUpAsync();
        var executor = ExecuteLoopAsync();
        await using (cancellationToken.Register(() => _stopped.TrySetResult()).ConfigureAwait(false))
        {
            await _stopped.Task.ConfigureAwait(false);
        }

        _executeQueue.Writer.TryComplete();
        Interrupt();
        await Task.WhenAny(executor, Task.Delay(TimeSpan.FromSeconds(5), CancellationToken.None)).ConfigureAwait(false);

        // Let the shutdown reply leave before the sockets close.
        await Task.Delay(200, CancellationToken.None).ConfigureAwait(false);
        _poller.Stop();
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _poller.Dispose();
        _outbox.Dispose();
        foreach (var socket in new NetMQSocket[] { _shell, _control, _stdin, _iopub, _heartbeat })
        {
            socket.Dispose();
        }

        _cells.Dispose();
        _running?.Dispose();
    }

    // On the poller thread: answer at once, or queue an execution.
    private void OnRequest(NetMQSocket socket, NetMQMessage frames)
    {
        var request = WireMessage.Parse(frames, _key);
        if (request is null)
        {
            Console.Error.WriteLine("perflab kernel: dropped a message with a bad signature or missing frames.");
            return;
        }

        switch (request.Type)
        {
            case "execute_request":
                _executeQueue.Writer.TryWrite(request);
                break;
            case "kernel_info_request":
                Busy(request, () => Reply(socket, request, "kernel_info_reply", KernelInfo()));
                break;
            case "is_complete_request":
                var code = (string?)request.Content["code"] ?? "";
                Reply(socket, request, "is_complete_reply", NotebookSession.IsComplete(code)
                    ? new JsonObject { ["status"] = "complete" }
                    : new JsonObject { ["status"] = "incomplete", ["indent"] = "    " });
                break;
            case "complete_request":
                _ = CompleteAsync(socket, request);
                break;
            case "inspect_request":
                Reply(socket, request, "inspect_reply", new JsonObject { ["status"] = "ok", ["found"] = false, ["data"] = new JsonObject(), ["metadata"] = new JsonObject() });
                break;
            case "history_request":
                Reply(socket, request, "history_reply", new JsonObject { ["status"] = "ok", ["history"] = new JsonArray() });
                break;
            case "comm_info_request":
                Reply(socket, request, "comm_info_reply", new JsonObject { ["status"] = "ok", ["comms"] = new JsonObject() });
                break;
            case "interrupt_request":
                Interrupt();
                Reply(socket, request, "interrupt_reply", new JsonObject { ["status"] = "ok" });
                break;
            case "shutdown_request":
                Reply(socket, request, "shutdown_reply", new JsonObject { ["status"] = "ok", ["restart"] = request.Content["restart"]?.DeepClone() ?? false });
                _stopped.TrySetResult();
                break;
            default:
                Console.Error.WriteLine($"perflab kernel: '{request.Type}' is not supported; ignored.");
                break;
        }
    }

    private async Task ExecuteLoopAsync()
    {
        await foreach (var request in _executeQueue.Reader.ReadAllAsync().ConfigureAwait(false))
        {
            using var interrupt = new CancellationTokenSource();
            lock (_runningGate)
            {
                _running = interrupt;
            }

            try
            {
                await ExecuteAsync(request, interrupt.Token).ConfigureAwait(false);
            }
            catch (Exception ex)
            {
                // A bug of the kernel itself: report it in the cell and keep serving.
                Publish("error", ToIopub(new ErrorOutput("KernelError", ex.ToString(), []), _cells.ExecutionCount).Content, request);
                Reply(_shell, request, "execute_reply", new JsonObject { ["status"] = "error", ["execution_count"] = _cells.ExecutionCount, ["ename"] = "KernelError", ["evalue"] = ex.Message, ["traceback"] = new JsonArray() });
                Publish("status", new JsonObject { ["execution_state"] = "idle" }, request);
            }
            finally
            {
                lock (_runningGate)
                {
                    _running = null;
                }
            }
        }
    }

    private async Task ExecuteAsync(WireMessage request, CancellationToken interrupt)
    {
        var code = (string?)request.Content["code"] ?? "";
        var silent = request.Content["silent"]?.GetValue<bool>() == true;
        var cellId = FollowPlotlyCarrier(request.Metadata);
        // The cell's runs name its notebook to a workshop room when the frontend said which (flows into the cell).
        PerfLab.Room.RoomLaptop.Notebook = KernelNotebook.Of(cellId, Environment.GetEnvironmentVariable(KernelNotebook.SessionVariable));
        Publish("status", new JsonObject { ["execution_state"] = "busy" }, request);
        Publish("execute_input", new JsonObject { ["code"] = code, ["execution_count"] = _cells.ExecutionCount + 1 }, request);
        ErrorOutput? error = null;
        var outcome = await _cells.ExecuteAsync(code, output =>
        {
            if (output is ErrorOutput e)
            {
                error ??= e;
            }

            if (output is DisplayOutput display && display.Data.TryGetValue("text/html", out var html) && PlotlyAsset.HasLoader(html))
            {
                _plotlyCarrier = cellId;
            }

            if (!silent || output is ErrorOutput)
            {
                var (type, content) = ToIopub(output, _cells.ExecutionCount);
                Publish(type, content, request);
            }
        }, $"cell [{_cells.ExecutionCount + 1}]", interrupt).ConfigureAwait(false);

        var reply = new JsonObject { ["status"] = outcome.Succeeded ? "ok" : "error", ["execution_count"] = outcome.ExecutionCount };
        if (outcome.Succeeded)
        {
            reply["user_expressions"] = new JsonObject();
            reply["payload"] = new JsonArray();
        }
        else
        {
            reply["ename"] = error?.Name ?? "Error";
            reply["evalue"] = error?.Message ?? "";
            reply["traceback"] = new JsonArray((error?.Traceback ?? []).Select(l => (JsonNode)l).ToArray());
        }

        Reply(_shell, request, "execute_reply", reply);
        Publish("status", new JsonObject { ["execution_state"] = "idle" }, request);
    }

    // plotly.js goes to the session's page once, with the first chart (NotebookPage.PlotlyLoaderOnce). When the frontend
    // names its cells (execute_request metadata: cellId from JupyterLab and VS Code, deletedCells from
    // JupyterLab) and the cell whose output carried it is re-run or deleted, that output is gone: send it
    // again with the next chart, or a saved notebook reopened later has charts and no plotly.js. Returns
    // this request's cellId.
    private string? FollowPlotlyCarrier(JsonObject metadata)
    {
        static string? Text(JsonNode? node) => node is JsonValue value && value.TryGetValue<string>(out var text) ? text : null;
        var cellId = Text(metadata["cellId"]);
        var deleted = metadata["deletedCells"] as JsonArray;
        if (_plotlyCarrier is not null && (cellId == _plotlyCarrier || deleted?.Any(d => Text(d) == _plotlyCarrier) == true))
        {
            _cells.Page.ResendPlotlyLoader();
            _plotlyCarrier = null;
        }

        return cellId;
    }

    private async Task CompleteAsync(NetMQSocket socket, WireMessage request)
    {
        var code = (string?)request.Content["code"] ?? "";
        var cursor = request.Content["cursor_pos"]?.GetValue<int>() ?? code.Length;
        JsonObject content;
        try
        {
            var completions = await _cells.CompleteAsync(code, cursor).ConfigureAwait(false);
            content = new JsonObject
            {
                ["status"] = "ok",
                ["matches"] = new JsonArray(completions.Matches.Select(m => (JsonNode)m).ToArray()),
                ["cursor_start"] = completions.Start,
                ["cursor_end"] = completions.End,
                ["metadata"] = new JsonObject(),
            };
        }
        catch (Exception ex)
        {
            content = new JsonObject { ["status"] = "error", ["ename"] = ex.GetType().Name, ["evalue"] = ex.Message, ["traceback"] = new JsonArray() };
        }

        Reply(socket, request, "complete_reply", content);
    }

    private void Interrupt()
    {
        lock (_runningGate)
        {
            _running?.Cancel();
        }
    }

    // Clients wait for an iopub status around kernel_info (jupyter-client 7 counts on it to see the kernel alive).
    private void Busy(WireMessage request, Action answer)
    {
        Publish("status", new JsonObject { ["execution_state"] = "busy" }, request);
        answer();
        Publish("status", new JsonObject { ["execution_state"] = "idle" }, request);
    }

    private void Reply(NetMQSocket socket, WireMessage request, string type, JsonObject content) =>
        _outbox.Enqueue((socket, WireMessage.Create(type, content, request, _session)));

    private void Publish(string type, JsonObject content, WireMessage? parent) =>
        _outbox.Enqueue((_iopub, WireMessage.Create(type, content, parent, _session, [Encoding.UTF8.GetBytes("kernel." + _session + "." + type)])));

    private static (string Type, JsonObject Content) ToIopub(CellOutput output, int executionCount)
    {
        var json = output.ToJupyter(executionCount);
        var type = (string)json["output_type"]!;
        json.Remove("output_type");
        if (output is StreamOutput stream)
        {
            json["text"] = stream.Text; // On the wire a string, not nbformat's list of lines.
        }
        else if (output is DisplayOutput display)
        {
            json["data"] = new JsonObject(display.Data.Select(d => KeyValuePair.Create(d.Key, (JsonNode?)d.Value)));
        }
        else if (output is LiveOutput live)
        {
            json["data"] = new JsonObject(live.Data.Select(d => KeyValuePair.Create(d.Key, (JsonNode?)d.Value)));
        }

        return (type, json);
    }

    private static JsonObject KernelInfo() => new()
    {
        ["status"] = "ok",
        ["protocol_version"] = WireMessage.ProtocolVersion,
        ["implementation"] = "perflab-csharp",
        ["implementation_version"] = typeof(KernelServer).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "1.0",
        ["language_info"] = new JsonObject
        {
            ["name"] = "csharp",
            ["version"] = NotebookSession.CSharpVersion,
            ["mimetype"] = "text/x-csharp",
            ["file_extension"] = ".cs",
            ["pygments_lexer"] = "csharp",
            ["codemirror_mode"] = "text/x-csharp",
        },
        ["banner"] = $"PerfLab C# kernel on {RuntimeInformation.FrameworkDescription}: BenchmarkDotNet on {RuntimeCatalog.InWords}, out of process.",
        ["help_links"] = new JsonArray(),
    };
}
