namespace PerfLab.Inputs;

/// <summary>
/// SplitMix64 (Steele, Lea and Flood; the seeding generator of xoshiro): 64-bit integer arithmetic
/// only, so a seed gives the same sequence on every runtime and machine, unlike System.Random, whose
/// algorithm is an implementation detail.
/// </summary>
internal struct SplitMix64
{
    private ulong _state;

    /// <summary>Starts the sequence of <paramref name="seed"/>.</summary>
    public SplitMix64(int seed) => _state = unchecked((ulong)(long)seed);

    /// <summary>The next 64 random bits.</summary>
    public ulong NextUInt64()
    {
        unchecked
        {
            _state += 0x9E3779B97F4A7C15UL;
            var z = _state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
            return z ^ (z >> 31);
        }
    }

    /// <summary>A number in [0, <paramref name="bound"/>); the modulo's bias (below 2^-40 here) does not matter.</summary>
    public int Next(int bound) => (int)(NextUInt64() % (ulong)bound);
}
