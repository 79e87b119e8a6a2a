namespace PerfLab;

/// <summary>
/// The per-user folder where PerfLab keeps provisioned runtimes, compiled benchmarks, cached results and
/// asm listings, and locks. <c>PERFLAB_HOME</c> overrides it (tests use a temporary one).
/// </summary>
public sealed class PerfLabHome
{
    /// <summary>Creates a home at <paramref name="root"/>.</summary>
    /// <param name="root">The folder; created on first use.</param>
    public PerfLabHome(string root)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(root);
        Root = Path.GetFullPath(root);
    }

    /// <summary>The folder itself.</summary>
    public string Root { get; }

    /// <summary>A private dotnet root holding provisioned runtimes next to a copy of the host muxer.</summary>
    public string DotnetRoot => Path.Combine(Root, "dotnet");

    /// <summary>Cached results, one file per (source, options, runtime, host, regex generator when used) key.</summary>
    public string ResultsCache => Path.Combine(Root, "results");

    /// <summary>Cached asm listings, one file per (source, methods, variant, environment, runtime, host, library, regex generator when used) key.</summary>
    public string AsmCache => Path.Combine(Root, "asm");

    /// <summary>Compiled benchmark assemblies, one folder per source and runtime (and regex generator, when the source uses one).</summary>
    public string Builds => Path.Combine(Root, "builds");

    /// <summary>Scratch folders of runs in progress.</summary>
    public string Work => Path.Combine(Root, "work");

    /// <summary>Lock files that serialize provisioning and measuring across processes.</summary>
    public string Locks => Path.Combine(Root, "locks");

    /// <summary>Host folders with ReadyToRun code, one per runtime and host build (<see cref="Benchmarks.ReadyToRunHosts"/>).</summary>
    public string ReadyToRunHosts => Path.Combine(Root, "hosts");

    /// <summary>Projects used to download runtime packs with <c>dotnet restore</c>.</summary>
    public string Provisioning => Path.Combine(Root, "provision");

    /// <summary>The home from <c>PERFLAB_HOME</c>, else the platform's per-user cache folder.</summary>
    public static PerfLabHome Default()
    {
        var fromEnv = Environment.GetEnvironmentVariable("PERFLAB_HOME");
        if (!string.IsNullOrWhiteSpace(fromEnv))
        {
            return new PerfLabHome(fromEnv);
        }

        string baseDir;
        if (OperatingSystem.IsWindows())
        {
            baseDir = Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData);
        }
        else if (OperatingSystem.IsMacOS())
        {
            baseDir = Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), "Library", "Caches");
        }
        else
        {
            var xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
            baseDir = string.IsNullOrWhiteSpace(xdg)
                ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache")
                : xdg;
        }

        return new PerfLabHome(Path.Combine(baseDir, "perflab"));
    }
}
