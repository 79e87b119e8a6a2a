using System.Text.Json;
using PerfLab.Contract;
using PerfLab.Processes;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// Starts one PerfLab.Host process on an exact runtime (`dotnet exec --fx-version`), with a request
/// file, extra environment variables and a timeout, and reads back its events and results file.
/// </summary>
internal sealed class HostLauncher(ReadyToRunHosts hosts)
{
    /// <summary>
    /// How a host run ended: the process, the results the host wrote (one per case it finished, in order; none when it
    /// wrote no file), and the first line the process printed that starts like an event
    /// (<see cref="HostProtocol.EventPrefix"/>) but is none: the benchmark's own output, which fails its case.
    /// </summary>
    /// <param name="Process">How the process ended.</param>
    /// <param name="Results">The host's results, one per case it finished, in order.</param>
    /// <param name="StrayEventLine">The first line that looked like an event and was none.</param>
    /// <param name="StrayEventCase">The case the host was running when it printed <paramref name="StrayEventLine"/>, when known.</param>
    public sealed record Outcome(ChildProcessResult Process, IReadOnlyList<HostResult> Results, string? StrayEventLine, int? StrayEventCase = null)
    {
        /// <summary>The result of a request for one case (or an asm capture): the first, or null.</summary>
        public HostResult? Result => Results.Count > 0 ? Results[0] : null;
    }

    /// <param name="runtime">Where and which runtime to start.</param>
    /// <param name="request">What the host should do (its ResultPath is read back).</param>
    /// <param name="folder">Scratch folder for the request file; the working directory.</param>
    /// <param name="environment">Variables set on the process, after the launcher's own.</param>
    /// <param name="timeout">Kills the process tree after this long; for a request of several cases (<see cref="HostRequest.FromCase"/>),
    /// after this long in one case.</param>
    /// <param name="onEvent">Sees each event the host prints.</param>
    /// <param name="onStep">Sees each <see cref="CaseStep"/> the run passes (started, first event, exited, result read).</param>
    /// <param name="cancellationToken">Kills the process tree and throws.</param>
    /// <param name="seat">When given, the host takes turns with other launches (<see cref="HostRequest.Turns"/> must be set):
    /// the seat gets its standard input and hears each of its stop lines (<see cref="HostProtocol.IsTurnLine"/>).</param>
    public async Task<Outcome> RunAsync(
        LocatedRuntime runtime,
        HostRequest request,
        string folder,
        IReadOnlyDictionary<string, string> environment,
        TimeSpan timeout,
        Action<HostEvent>? onEvent,
        Action<string>? onStep,
        CancellationToken cancellationToken,
        TurnSeat? seat = null)
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
        var perCase = request.FromCase is null ? null : new RestartableTimeout();
        int? lastCase = null, strayCase = null;
        var process = await ChildProcess.RunAsync(
            runtime.Installation.Muxer,
            ["exec", "--fx-version", runtime.Pinned.Version, hosts.HostAssembly(runtime.Pinned), requestPath],
            variables,
            folder,
            timeout,
            line =>
            {
                if (seat is not null && HostProtocol.IsTurnLine(line))
                {
                    seat.Stopped(line);
                    return true;
                }

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
                    if (Interlocked.CompareExchange(ref stray, line, null) is null)
                    {
                        strayCase = lastCase;
                    }

                    return false;
                }

                if (hostEvent is not null)
                {
                    if (Interlocked.Increment(ref events) == 1)
                    {
                        onStep?.Invoke(CaseStep.FirstEvent);
                    }

                    if (hostEvent.Case is { } index && index != lastCase)
                    {
                        lastCase = index;
                        perCase?.Restart();
                    }

                    onEvent?.Invoke(hostEvent);
                }

                return true;
            },
            _ => onStep?.Invoke(CaseStep.Started),
            cancellationToken,
            perCase,
            seat is null ? null : seat.Attach).ConfigureAwait(false);
        onStep?.Invoke(CaseStep.Exited);

        IReadOnlyList<HostResult> results = [];
        if (File.Exists(request.ResultPath))
        {
            results = JsonSerializer.Deserialize<HostResult[]>(await File.ReadAllTextAsync(request.ResultPath, cancellationToken).ConfigureAwait(false), HostProtocol.Json) ?? [];
        }

        onStep?.Invoke(CaseStep.ResultRead);
        return new Outcome(process, results, stray, strayCase);
    }

    // The run's own setting wins, under either prefix the runtime reads.
    private static bool SetsCallCountingDelay(string name) =>
        name is QuickJob.CallCountingDelayVariable or QuickJob.LegacyCallCountingDelayVariable;
}
