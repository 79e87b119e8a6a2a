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

    /// <summary>Projects used to download packages with <c>dotnet restore</c>: the runtime packs and each runtime's crossgen2.</summary>
    public string Provisioning => Path.Combine(Root, "provision");

    /// <summary>
    /// Makes a home at <paramref name="root"/> whose <paramref name="sharedFolders"/> (e.g. "dotnet", "locks") are
    /// symbolic links to those of <paramref name="sharedRoot"/>, while its other folders (cached results, listings,
    /// builds) are its own and start empty: a run that must not see another run's measurements, yet uses the runtimes
    /// already provisioned and waits on the same locks. A folder already there is kept. Where no symbolic link can be
    /// made (Windows without developer mode), the folder is made empty here instead: check
    /// <see cref="SharesFolder"/> when that matters.
    /// </summary>
    /// <param name="root">The new home's folder; created.</param>
    /// <param name="sharedRoot">The home whose folders are shared; they are created there when missing.</param>
    /// <param name="sharedFolders">The names of the folders to share, e.g. <c>Path.GetFileName(home.DotnetRoot)</c>.</param>
    public static PerfLabHome Linked(string root, string sharedRoot, IEnumerable<string> sharedFolders)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(root);
        ArgumentException.ThrowIfNullOrWhiteSpace(sharedRoot);
        ArgumentNullException.ThrowIfNull(sharedFolders);
        Directory.CreateDirectory(root);
        foreach (var folder in sharedFolders)
        {
            var shared = Directory.CreateDirectory(Path.Combine(sharedRoot, folder)).FullName;
            var link = Path.Combine(root, folder);
            if (Directory.Exists(link))
            {
                continue;
            }

            try
            {
                Directory.CreateSymbolicLink(link, shared);
            }
            catch (IOException) when (Directory.Exists(link))
            {
                // Another process making the same home made it first.
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // No symbolic links here: this home gets a folder of its own.
                Directory.CreateDirectory(link);
            }
        }

        return new PerfLabHome(root);
    }

    /// <summary>Whether this home's folder <paramref name="folder"/> is a link to another home's (<see cref="Linked"/>).</summary>
    /// <param name="folder">The folder's name, e.g. "dotnet".</param>
    public bool SharesFolder(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        return new DirectoryInfo(Path.Combine(Root, folder)).LinkTarget is not null;
    }

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
