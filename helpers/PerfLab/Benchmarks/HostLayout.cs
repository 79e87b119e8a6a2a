using System.Security.Cryptography;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>
/// Where the prebuilt PerfLab.Host of each target framework lives: host/&lt;tfm&gt;/ next to this library
/// (helpers/PerfLab.Host/build/PerfLab.Host.Bundle.targets copies it there at build time). Next to the
/// library, not the process: in a notebook kernel the process is the kernel's, the library the course's.
/// </summary>
public sealed class HostLayout
{
    private readonly Dictionary<string, string> _versions = [];
    private readonly Dictionary<string, string> _generatorVersions = [];

    /// <summary>Creates the layout.</summary>
    /// <param name="baseDirectory">The folder holding host/&lt;tfm&gt;/; null: host/ next to this library.</param>
    public HostLayout(string? baseDirectory = null)
    {
        BaseDirectory = baseDirectory ?? Path.Combine(Path.GetDirectoryName(typeof(HostLayout).Assembly.Location) ?? AppContext.BaseDirectory, "host");
    }

    /// <summary>The folder holding one host build per target framework.</summary>
    public string BaseDirectory { get; }

    /// <summary>The host folder for a runtime; throws when the host was not built.</summary>
    public string FolderFor(PinnedRuntime runtime)
    {
        var folder = Path.Combine(BaseDirectory, runtime.Moniker);
        if (!File.Exists(Path.Combine(folder, "PerfLab.Host.dll")))
        {
            throw new PerfLabException(
                $"The PerfLab host for {runtime.Moniker} is not built (no {Path.Combine(folder, "PerfLab.Host.dll")}).",
                "Build the helpers from the repository root: `dotnet build`.");
        }

        return folder;
    }

    /// <summary>The host's main assembly for a runtime; throws when the host was not built.</summary>
    public string HostAssembly(PinnedRuntime runtime) => Path.Combine(FolderFor(runtime), "PerfLab.Host.dll");

    /// <summary>
    /// The regex source generator of the runtime's reference pack, which the host build copies to
    /// generators/ (PerfLab.Host.csproj); throws when the host was not built.
    /// </summary>
    public string RegexGeneratorPath(PinnedRuntime runtime) => Path.Combine(FolderFor(runtime), "generators", "System.Text.RegularExpressions.Generator.dll");

    /// <summary>
    /// What identifies the source generators a compile of <paramref name="source"/> for
    /// <paramref name="runtime"/> runs: a hash of that runtime's regex generator when the source uses
    /// [GeneratedRegex] (<see cref="RegexGenerator.IsUsedBy"/>), else null (it runs none).
    /// Builds and cached results keyed with it are not reused with another generator (another
    /// reference pack), which the host's own hash does not see.
    /// </summary>
    /// <exception cref="PerfLabException">The source uses [GeneratedRegex] and the generator is missing.</exception>
    public string? GeneratorsFor(string source, PinnedRuntime runtime)
    {
        ArgumentNullException.ThrowIfNull(source);
        if (!RegexGenerator.IsUsedBy(source))
        {
            return null;
        }

        lock (_generatorVersions)
        {
            if (!_generatorVersions.TryGetValue(runtime.Moniker, out var version))
            {
                var path = RegexGeneratorPath(runtime);
                if (!File.Exists(path))
                {
                    throw RegexGenerator.Missing(path);
                }

                using var stream = File.OpenRead(path);
                version = "regex:" + Convert.ToHexStringLower(SHA256.HashData(stream))[..16];
                _generatorVersions[runtime.Moniker] = version;
            }

            return version;
        }
    }

    /// <summary>The assembly of benchmark inputs (Corpus, PostInputs) the host carries, which cells may use.</summary>
    public const string InputsAssembly = "PerfLab.Inputs.dll";

    /// <summary>
    /// What a benchmark compiles against besides the runtime's reference assemblies: BenchmarkDotNet's
    /// assemblies and PerfLab.Inputs, from the host folder, where the host process loads them from too.
    /// </summary>
    public IReadOnlyList<string> CellReferences(PinnedRuntime runtime) =>
        Directory.EnumerateFiles(FolderFor(runtime), "*.dll")
            .Where(f => Path.GetFileName(f) is var n && (n.StartsWith("BenchmarkDotNet", StringComparison.Ordinal) || n.StartsWith("Perfolizer", StringComparison.Ordinal) || n.StartsWith("Pragmastat", StringComparison.Ordinal) || n == InputsAssembly))
            .Order(StringComparer.Ordinal)
            .ToArray();

    /// <summary>
    /// A hash of the host's assembly and of PerfLab.Inputs (a benchmark's input is part of what it
    /// measured): results and compiled benchmarks from another build of either are not reused.
    /// </summary>
    public string VersionOf(PinnedRuntime runtime)
    {
        lock (_versions)
        {
            if (!_versions.TryGetValue(runtime.Moniker, out var version))
            {
                using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
                foreach (var file in new[] { HostAssembly(runtime), Path.Combine(FolderFor(runtime), InputsAssembly) })
                {
                    if (!File.Exists(file))
                    {
                        throw new PerfLabException(
                            $"The PerfLab host for {runtime.Moniker} is incomplete (no {file}).",
                            "Build the helpers from the repository root: `dotnet build`.");
                    }

                    hash.AppendData(SHA256.HashData(File.ReadAllBytes(file)));
                }

                version = Convert.ToHexStringLower(hash.GetHashAndReset())[..16];
                _versions[runtime.Moniker] = version;
            }

            return version;
        }
    }
}
