using System.Text.Json;
using PerfLab.Contract;
using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// Starts one PerfLab.Host process on an exact runtime (`dotnet exec --fx-version`), with a request
/// file, extra environment variables and a timeout, and reads back its events and result file.
/// </summary>
internal sealed class HostLauncher(ReadyToRunHosts hosts)
{
    /// <summary>
    /// How a host run ended: the process, the result file when the host wrote one, and the first line the
    /// process printed that starts like an event (<see cref="HostProtocol.EventPrefix"/>) but is none: the
    /// benchmark's own output, which fails its case.
    /// </summary>
    public sealed record Outcome(ChildProcessResult Process, HostResult? Result, string? StrayEventLine);

    /// <param name="runtime">Where and which runtime to start.</param>
    /// <param name="request">What the host should do (its ResultPath is read back).</param>
    /// <param name="folder">Scratch folder for the request file; the working directory.</param>
    /// <param name="environment">Variables set on the process, after the launcher's own.</param>
    /// <param name="timeout">Kills the process tree after this long.</param>
    /// <param name="onEvent">Sees each event the host prints.</param>
    /// <param name="onStep">Sees each <see cref="CaseStep"/> the run passes (started, first event, exited, result read).</param>
    /// <param name="cancellationToken">Kills the process tree and throws.</param>
    public async Task<Outcome> RunAsync(
        LocatedRuntime runtime,
        HostRequest request,
        string folder,
        IReadOnlyDictionary<string, string> environment,
        TimeSpan timeout,
        Action<HostEvent>? onEvent,
        Action<string>? onStep,
        CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(folder);
        var requestPath = Path.Combine(folder, "request.json");
        await File.WriteAllTextAsync(requestPath, JsonSerializer.Serialize(request, HostProtocol.Json), cancellationToken).ConfigureAwait(false);

        var variables = new Dictionary<string, string?>
        {
            ["DOTNET_ROOT"] = runtime.Installation!.Root,
            ["DOTNET_MULTILEVEL_LOOKUP"] = "0",
            ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
        };
        if (request is { Mode: BenchmarkMode.Quick, Launches: > 1 } && !environment.Keys.Any(SetsCallCountingDelay))
        {
            variables[QuickJob.CallCountingDelayVariable] = QuickJob.CallCountingDelaySetting(QuickJob.CallCountingDelayMs);
        }

        foreach (var (name, value) in environment)
        {
            variables[name] = value;
        }

        var events = 0;
        string? stray = null;
        var process = await ChildProcess.RunAsync(
            runtime.Installation.Muxer,
            ["exec", "--fx-version", runtime.Pinned.Version, hosts.HostAssembly(runtime.Pinned), requestPath],
            variables,
            folder,
            timeout,
            line =>
            {
                if (!line.StartsWith(HostProtocol.EventPrefix, StringComparison.Ordinal))
                {
                    return false;
                }

                HostEvent? hostEvent;
                try
                {
                    hostEvent = JsonSerializer.Deserialize<HostEvent>(line.AsSpan(HostProtocol.EventPrefix.Length), HostProtocol.Json);
                }
                catch (JsonException)
                {
                    // Thrown here, on the output reader's thread, it would end the whole process: the case fails instead.
                    Interlocked.CompareExchange(ref stray, line, null);
                    return false;
                }

                if (hostEvent is not null)
                {
                    if (Interlocked.Increment(ref events) == 1)
                    {
                        onStep?.Invoke(CaseStep.FirstEvent);
                    }

                    onEvent?.Invoke(hostEvent);
                }

                return true;
            },
            _ => onStep?.Invoke(CaseStep.Started),
            cancellationToken).ConfigureAwait(false);
        onStep?.Invoke(CaseStep.Exited);

        HostResult? result = null;
        if (File.Exists(request.ResultPath))
        {
            result = JsonSerializer.Deserialize<HostResult>(await File.ReadAllTextAsync(request.ResultPath, cancellationToken).ConfigureAwait(false), HostProtocol.Json);
        }

        onStep?.Invoke(CaseStep.ResultRead);
        return new Outcome(process, result, stray);
    }

    // The run's own setting wins, under either prefix the runtime reads.
    private static bool SetsCallCountingDelay(string name) =>
        name is QuickJob.CallCountingDelayVariable or QuickJob.LegacyCallCountingDelayVariable;
}
