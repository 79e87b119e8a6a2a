namespace PerfLab.Notebooks.Exercises;

/// <summary>
/// Bytes per call are averaged over the measured calls and counted for the whole process, so on a busy
/// machine a background tier-1 compile that lands during the measurement adds a byte or two to code that
/// allocates nothing. The smallest object is 24 bytes: below <see cref="Bytes"/>, a row allocated no object.
/// </summary>
internal static class AllocationNoise
{
    /// <summary>Bytes per call below which a row counts as allocating nothing.</summary>
    public const long Bytes = 8;

    /// <summary>Whether <paramref name="bytesPerCall"/> means an object was allocated per call.</summary>
    /// <param name="bytesPerCall">The row's allocated bytes per call, or null when not measured.</param>
    public static bool AllocatesObjects(long? bytesPerCall) => bytesPerCall >= Bytes;
}
