namespace PerfLab.Notebooks;

/// <summary>Which of the JIT's compilations of a method <see cref="Lab.AsmAsync{T}(AsmVariant, string[])"/> shows.</summary>
public enum AsmVariant
{
    /// <summary>The code a long-running process ends up with: Tier1 (or OSR), shaped by dynamic PGO.</summary>
    SteadyState,

    /// <summary>Tiering off: the first, fully optimized compile, without a profile (what SharpLab and Compiler Explorer show).</summary>
    FullOpts,

    /// <summary>Steady state with dynamic PGO off (DOTNET_TieredPGO=0).</summary>
    NoPgo,

    /// <summary>The first code the JIT produced: Tier0, compiled fast and unoptimized.</summary>
    Tier0,
}
