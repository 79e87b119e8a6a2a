namespace PerfLab.Benchmarks;

/// <summary>
/// The named points a run passes on its way from source to a case's result, in order. The engine and the
/// launcher report each one (<see cref="BenchmarkEngine.OnStep"/>) so a test can cancel exactly there:
/// a cancel at any of them must stop the run and leave no process behind.
/// </summary>
internal static class CaseStep
{
    /// <summary>The source is compiled for every runtime; nothing is locked or started yet.</summary>
    public const string Compiled = "compiled";

    /// <summary>The measuring lock is taken; no host is started yet.</summary>
    public const string Locked = "locked";

    /// <summary>A host process is started (it may not have run any code yet).</summary>
    public const string Started = "started";

    /// <summary>The first event of a host is read: it is running and has listed its cases.</summary>
    public const string FirstEvent = "event";

    /// <summary>A host process has ended; its result file is not read yet.</summary>
    public const string Exited = "exited";

    /// <summary>A host's result file is read.</summary>
    public const string ResultRead = "result";
}
