using System.Text.Json;
using System.Text.Json.Serialization;

namespace PerfLab.Kernel;

/// <summary>The connection file Jupyter writes for a kernel: where to bind each socket, and the signing key.</summary>
public sealed record ConnectionInfo
{
    /// <summary>tcp (ipc is not supported by NetMQ).</summary>
    [JsonPropertyName("transport")] public string Transport { get; init; } = "tcp";

    /// <summary>The address to bind.</summary>
    [JsonPropertyName("ip")] public string Ip { get; init; } = "127.0.0.1";

    /// <summary>Requests: execute, complete, inspect, kernel_info...</summary>
    [JsonPropertyName("shell_port")] public int ShellPort { get; init; }

    /// <summary>Broadcast: status, streams, displays, results, errors.</summary>
    [JsonPropertyName("iopub_port")] public int IopubPort { get; init; }

    /// <summary>Input requests (not used: cells cannot read the console).</summary>
    [JsonPropertyName("stdin_port")] public int StdinPort { get; init; }

    /// <summary>Interrupt and shutdown, answered even while a cell runs.</summary>
    [JsonPropertyName("control_port")] public int ControlPort { get; init; }

    /// <summary>Heartbeat: echoes whatever arrives.</summary>
    [JsonPropertyName("hb_port")] public int HeartbeatPort { get; init; }

    /// <summary>The HMAC key; empty turns signing off.</summary>
    [JsonPropertyName("key")] public string Key { get; init; } = "";

    /// <summary>hmac-sha256 (the only scheme Jupyter uses).</summary>
    [JsonPropertyName("signature_scheme")] public string SignatureScheme { get; init; } = "hmac-sha256";

    /// <summary>The endpoint for a port.</summary>
    /// <param name="port">The port.</param>
    public string Endpoint(int port) => $"{Transport}://{Ip}:{port}";

    /// <summary>Reads a connection file.</summary>
    /// <param name="path">The file Jupyter passed as {connection_file}.</param>
    /// <exception cref="PerfLabException">The file is missing or not a Jupyter connection file.</exception>
    public static ConnectionInfo Load(string path)
    {
        if (!File.Exists(path))
        {
            throw new PerfLabException($"Jupyter connection file not found: {path}.", "The kernel is started by Jupyter (`perflab kernel install`, then choose \"C# (PerfLab)\"), which passes this file.");
        }

        ConnectionInfo? info;
        try
        {
            info = JsonSerializer.Deserialize<ConnectionInfo>(File.ReadAllText(path));
        }
        catch (JsonException ex)
        {
            throw new PerfLabException($"{path} is not a Jupyter connection file: {ex.Message}", "Let Jupyter start the kernel; it writes this file.", inner: ex);
        }

        if (info is null || info.ShellPort <= 0 || info.IopubPort <= 0 || info.ControlPort <= 0 || info.HeartbeatPort <= 0 || info.StdinPort <= 0)
        {
            throw new PerfLabException($"{path} does not name the five kernel ports.", "Let Jupyter start the kernel; it writes this file.");
        }

        if (info.Transport != "tcp")
        {
            throw new PerfLabException($"The connection file asks for transport '{info.Transport}'; this kernel speaks tcp only.", "Start Jupyter with its default transport (tcp).");
        }

        if (info.SignatureScheme != "hmac-sha256" && info.Key.Length > 0)
        {
            throw new PerfLabException($"Unsupported signature scheme '{info.SignatureScheme}'.", "Use Jupyter's default, hmac-sha256.");
        }

        return info;
    }
}
