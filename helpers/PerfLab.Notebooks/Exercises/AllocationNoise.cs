namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// Bytes per call are averaged over the measured calls and counted for the whole process, so on a busy
/// machine another thread's allocation during the measurement (the runtime's tiering worker) adds a few bytes
/// per call to code that allocates nothing: 8 B in a CI run, for an exercise's kept solution. The smallest object
/// is 24 bytes: below <see cref="Bytes"/>, a row allocated no object per call.
/// </summary>
internal static class AllocationNoise
{
    /// <summary>Bytes per call below which a row counts as allocating nothing: the smallest object's.</summary>
    public const long Bytes = 24;

    /// <summary>Whether <paramref name="bytesPerCall"/> means an object was allocated per call.</summary>
    /// <param name="bytesPerCall">The row's allocated bytes per call, or null when not measured.</param>
    public static bool AllocatesObjects(long? bytesPerCall) => bytesPerCall >= Bytes;
}
