using System.CommandLine;
using PerfLab.Runtimes;

namespace PerfLab.Cli;

/// <summary>The `perflab` command line: bench, asm, regex, runtimes, doctor, run (notebooks), kernel, setup, prefetch, reference, fidelity, site, corpus, room.</summary>
internal static class PerfLabCommand
{
    public const int Failure = 1;
    public const int Cancelled = 130;

    public static RootCommand Create(TextWriter output, TextWriter error)
    {
        var root = new RootCommand($"PerfLab: run BenchmarkDotNet benchmarks on {RuntimeCatalog.InWords}, each runtime in its own process.")
        {
            BenchCommand.Create(output, error),
            AsmCommand.Create(output, error),
            RegexCommand.Create(output, error),
            RuntimesCommand.Create(output, error),
            DoctorCommand.Create(output, error),
            RunCommand.Create(output, error),
            KernelCommand.Create(output, error),
            SetupCommand.Create(output, error),
            PrefetchCommand.Create(output, error),
            ReferenceCommand.Create(output, error),
            FidelityCommand.Create(output, error),
            SiteCommand.Create(output, error),
            CorpusCommand.Create(output, error),
            RoomCommand.Create(output, error),
        };
        return root;
    }

    /// <summary>
    /// How `perflab` is invoked. Ctrl+C cancels the command, and the process exits once the command has ended:
    /// System.CommandLine's default forces exit 130 after 2 s, which the kill of a benchmark's process tree can
    /// outlast on a loaded machine, leaving the benchmark running. Every cancelled wait on a child is bounded
    /// (ChildProcess: the tree kill, then its output), so the command does end.
    /// </summary>
    public static InvocationConfiguration Invocation() => new() { ProcessTerminationTimeout = Timeout.InfiniteTimeSpan };

    // Every expected failure ends as one message and a fix; Ctrl+C as a short note.
    internal static async Task<int> Guard(TextWriter error, Func<Task<int>> action)
    {
        try
        {
            return await action().ConfigureAwait(false);
        }
        catch (PerfLabException ex)
        {
            error.WriteLine($"error: {ex.Message}");
            foreach (var line in ex.Details)
            {
                error.WriteLine($"  {line}");
            }

            if (ex.Fix is not null)
            {
                error.WriteLine($"fix: {ex.Fix}");
            }

            return Failure;
        }
        catch (OperationCanceledException)
        {
            error.WriteLine("Cancelled. Every benchmark process was stopped.");
            return Cancelled;
        }
    }
}
