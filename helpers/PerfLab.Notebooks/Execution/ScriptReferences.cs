using System.Collections.Immutable;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Scripting;

namespace PerfLab.Notebooks.Execution;

/// <summary>
/// Resolves <c>#r "path.dll"</c> relative to the notebook's folder. When the path names one of the
/// assemblies this process already runs (the helpers themselves: the kernel hosts them), the loaded
/// copy is used, so a notebook and its kernel never see two copies of Lab or of the result types.
/// </summary>
internal sealed class ScriptReferences : MetadataReferenceResolver
{
    private readonly ScriptMetadataResolver _files;
    private readonly string _baseDirectory;

    public ScriptReferences(string baseDirectory)
    {
        _baseDirectory = baseDirectory;
        _files = ScriptMetadataResolver.Default.WithBaseDirectory(baseDirectory);
    }

    /// <summary>
    /// Assemblies the kernel shares with notebooks, by simple name; every cell references them, so a cell
    /// can write <c>using PerfLab.Inputs;</c> (the benchmark inputs) without a <c>#r</c>.
    /// </summary>
    public static IReadOnlyDictionary<string, Assembly> Shared { get; } = new[]
    {
        typeof(ScriptReferences).Assembly,
        typeof(PerfLabException).Assembly,
        typeof(BenchmarkDotNet.Attributes.BenchmarkAttribute).Assembly,
        typeof(PerfLab.Inputs.Corpus).Assembly,
    }.ToDictionary(a => a.GetName().Name!, StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// The framework this process runs on, as implementation assemblies: scripting binds submissions to
    /// the live runtime (reference assemblies make Roslyn scripting fail to find corlib).
    /// </summary>
    public static Lazy<IReadOnlyList<MetadataReference>> Framework { get; } = new(() =>
    {
        var folder = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        return ((string?)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") ?? "")
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Where(p => p.StartsWith(folder, StringComparison.Ordinal) && IsManaged(p))
            .Select(p => (MetadataReference)MetadataReference.CreateFromFile(p))
            .ToArray();
    });

    public override bool ResolveMissingAssemblies => true;

    public override ImmutableArray<PortableExecutableReference> ResolveReference(string reference, string? baseFilePath, MetadataReferenceProperties properties)
    {
        // A NuGet reference is a .NET Interactive magic the course does not use; the cell gets CS0006.
        if (reference.StartsWith("nuget:", StringComparison.OrdinalIgnoreCase))
        {
            return [];
        }

        var resolved = _files.ResolveReference(reference, baseFilePath ?? Path.Combine(_baseDirectory, "cell.csx"), properties);
        return resolved.Select(r => SharedReference(r.FilePath) ?? r).ToImmutableArray();
    }

    public override PortableExecutableReference? ResolveMissingAssembly(MetadataReference definition, AssemblyIdentity referenceIdentity)
    {
        if (Shared.TryGetValue(referenceIdentity.Name, out var assembly))
        {
            return MetadataReference.CreateFromFile(assembly.Location);
        }

        // A dependency of a #r'd library: look next to it, as the runtime will.
        if (definition is PortableExecutableReference { FilePath: { } path })
        {
            var sibling = Path.Combine(Path.GetDirectoryName(path)!, referenceIdentity.Name + ".dll");
            if (File.Exists(sibling))
            {
                return MetadataReference.CreateFromFile(sibling);
            }
        }

        return null;
    }

    public override bool Equals(object? other) => other is ScriptReferences references && references._baseDirectory == _baseDirectory;

    public override int GetHashCode() => _baseDirectory.GetHashCode(StringComparison.Ordinal);

    private static bool IsManaged(string path)
    {
        try
        {
            AssemblyName.GetAssemblyName(path);
            return true;
        }
        catch (BadImageFormatException)
        {
            return false;
        }
    }

    private static PortableExecutableReference? SharedReference(string? path)
    {
        if (path is null || !File.Exists(path))
        {
            return null;
        }

        AssemblyName name;
        try
        {
            name = AssemblyName.GetAssemblyName(path);
        }
        catch (BadImageFormatException)
        {
            return null;
        }

        return Shared.TryGetValue(name.Name!, out var loaded) ? MetadataReference.CreateFromFile(loaded.Location) : null;
    }
}
