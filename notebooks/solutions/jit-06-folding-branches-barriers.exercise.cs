public class Letters
{
    private readonly int _code = 'q';

    [Benchmark]
    public bool Check() => IsLowerLetter(_code);

    // Below 'a', c - 'a' is negative, which as a uint is above 25: one unsigned compare covers both ends.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static bool IsLowerLetter(int c) => (uint)(c - 'a') <= 'z' - 'a';
}
