using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;

namespace PerfLab.Benchmarks;

/// <summary>What one run of a source generator over a compilation produced.</summary>
/// <param name="Compilation">The input compilation with the generated files added.</param>
/// <param name="Diagnostics">What the generator reported (an invalid pattern is an error here).</param>
/// <param name="Generated">The generated files, in the generator's order.</param>
public sealed record GeneratorOutcome(CSharpCompilation Compilation, ImmutableArray<Diagnostic> Diagnostics, ImmutableArray<SyntaxTree> Generated)
{
    // A partial method or property the generator gave no body: the generator's own error at it says why.
    private static readonly string[] NoImplementation = ["CS8795", "CS9248"];

    /// <summary>
    /// The errors of the generator and of <paramref name="compilerDiagnostics"/> (the compile of
    /// <see cref="Compilation"/>), without the "partial member must have an implementation" errors of
    /// members the generator reported an error on: the reader sees the invalid pattern, not its echo.
    /// </summary>
    /// <param name="compilerDiagnostics">What compiling or emitting <see cref="Compilation"/> reported.</param>
    public IReadOnlyList<Diagnostic> ErrorsWith(IEnumerable<Diagnostic> compilerDiagnostics)
    {
        ArgumentNullException.ThrowIfNull(compilerDiagnostics);
        var generatorErrors = Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).ToArray();
        var explained = generatorErrors
            .Where(d => d.Location.IsInSource)
            .Select(d => d.Location.SourceTree!.GetRoot().FindNode(d.Location.SourceSpan).AncestorsAndSelf().OfType<MemberDeclarationSyntax>().FirstOrDefault())
            .OfType<MemberDeclarationSyntax>()
            .ToArray();
        return generatorErrors
            .Concat(compilerDiagnostics.Where(d => d.Severity == DiagnosticSeverity.Error))
            .Where(d => !(NoImplementation.Contains(d.Id) && explained.Any(m => m.SyntaxTree == d.Location.SourceTree && m.Span.Contains(d.Location.SourceSpan))))
            .ToArray();
    }
}

/// <summary>
/// The regex source generator (System.Text.RegularExpressions.Generator.dll) of one runtime's reference
/// pack, loaded into a context of its own so the generators of .NET 8, 9 and 10 (same assembly name)
/// live side by side, each bound to the Roslyn this process runs. It is what turns a
/// <c>[GeneratedRegex]</c> method into C#: the benchmark compiler runs it on every cell, the notebook
/// kernel on cells that declare one, and the source view shows its output.
/// </summary>
public sealed class RegexGenerator
{
    private static readonly ConcurrentDictionary<string, Lazy<RegexGenerator>> Loaded = new(StringComparer.Ordinal);

    private readonly ImmutableArray<ISourceGenerator> _generators;

    private RegexGenerator(string path, ImmutableArray<ISourceGenerator> generators)
    {
        Path = path;
        _generators = generators;
        Version = FileVersionInfo.GetVersionInfo(path).FileVersion ?? "unknown";
    }

    /// <summary>The generator assembly's path.</summary>
    public string Path { get; }

    /// <summary>The generator assembly's file version (the runtime build it shipped with).</summary>
    public string Version { get; }

    /// <summary>Loads the generator at <paramref name="path"/>, once per process.</summary>
    /// <param name="path">A System.Text.RegularExpressions.Generator.dll.</param>
    /// <exception cref="PerfLabException">The file is missing or holds no C# source generator.</exception>
    public static RegexGenerator Load(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var full = System.IO.Path.GetFullPath(path);
        if (!File.Exists(full))
        {
            throw Missing(full);
        }

        var lazy = Loaded.GetOrAdd(full, p => new Lazy<RegexGenerator>(() => Create(p)));
        try
        {
            return lazy.Value;
        }
        catch
        {
            Loaded.TryRemove(full, out _);
            throw;
        }
    }

    /// <summary>
    /// Whether a compile of <paramref name="source"/> needs the generator. A plain text check, so the
    /// cache keys can ask it without parsing; a comment that names the attribute only costs a generator
    /// run that finds nothing.
    /// </summary>
    /// <param name="source">C# source.</param>
    public static bool IsUsedBy(string source)
    {
        ArgumentNullException.ThrowIfNull(source);
        return source.Contains("GeneratedRegex", StringComparison.Ordinal);
    }

    internal static PerfLabException Missing(string path) => new(
        $"The regex source generator is missing: {path}.",
        "Build the helpers from the repository root (`dotnet build helpers/PerfLab.Cli`): the host build copies each runtime's generator next to it.");

    private static RegexGenerator Create(string path)
    {
        var reference = new AnalyzerFileReference(path, new IsolatedLoader());
        var generators = reference.GetGenerators(LanguageNames.CSharp);
        if (generators.IsDefaultOrEmpty)
        {
            throw new PerfLabException($"{path} holds no C# source generator.", "Rebuild the helpers; the file may be damaged.");
        }

        return new RegexGenerator(path, generators);
    }

    /// <summary>Runs the generator over <paramref name="compilation"/>.</summary>
    /// <param name="compilation">A regular (not script) compilation whose <c>[GeneratedRegex]</c> methods want bodies.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    public GeneratorOutcome Run(CSharpCompilation compilation, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(compilation);
        var parseOptions = compilation.SyntaxTrees.FirstOrDefault()?.Options as CSharpParseOptions ?? CSharpParseOptions.Default;
        GeneratorDriver driver = CSharpGeneratorDriver.Create(_generators, parseOptions: parseOptions);
        driver = driver.RunGeneratorsAndUpdateCompilation(compilation, out var updated, out var diagnostics, cancellationToken);
        var generated = driver.GetRunResult().GeneratedTrees;
        return new GeneratorOutcome((CSharpCompilation)updated, [.. diagnostics.Select(d => InSource(d, compilation))], generated);
    }

    // The generator keeps locations as file path and span (so its incremental steps compare equal), which
    // makes them external-file locations: put them back in the tree, so they show the reader's line and
    // can be matched with the compiler's own diagnostics of the same member.
    private static Diagnostic InSource(Diagnostic diagnostic, Compilation compilation)
    {
        if (diagnostic.Location is not { Kind: LocationKind.ExternalFile } location
            || compilation.SyntaxTrees.FirstOrDefault(t => t.FilePath == location.GetLineSpan().Path) is not { } tree
            || location.SourceSpan.End > tree.Length)
        {
            return diagnostic;
        }

        var descriptor = diagnostic.Descriptor;
        var asWritten = new DiagnosticDescriptor(descriptor.Id, descriptor.Title, "{0}", descriptor.Category, descriptor.DefaultSeverity, descriptor.IsEnabledByDefault, descriptor.Description, descriptor.HelpLinkUri, [.. descriptor.CustomTags]);
        return Diagnostic.Create(asWritten, Location.Create(tree, location.SourceSpan), diagnostic.Severity, null, diagnostic.Properties, diagnostic.GetMessage(CultureInfo.InvariantCulture));
    }

    // One load context per generator file: the three runtimes' generators share an assembly name.
    // Roslyn resolves to the very copy PerfLab compiles with (the generator was built against an older
    // Roslyn; newer is compatible), and the framework to this process's.
    private sealed class IsolatedLoader : IAnalyzerAssemblyLoader
    {
        private readonly ConcurrentDictionary<string, Assembly> _assemblies = new(StringComparer.Ordinal);

        public void AddDependencyLocation(string fullPath)
        {
        }

        public Assembly LoadFromPath(string fullPath) =>
            _assemblies.GetOrAdd(fullPath, p => new GeneratorLoadContext(p).LoadFromAssemblyPath(p));
    }

    private sealed class GeneratorLoadContext(string path) : AssemblyLoadContext($"regex generator {path}", isCollectible: false)
    {
        private readonly string _folder = System.IO.Path.GetDirectoryName(path)!;

        // By simple name, not by the default context: in .NET Interactive the default context holds that
        // kernel's own, older Roslyn, and a generator bound to it would not be an ISourceGenerator here.
        private static readonly Assembly[] Roslyn = [typeof(ISourceGenerator).Assembly, typeof(CSharpCompilation).Assembly];

        protected override Assembly? Load(AssemblyName assemblyName)
        {
            if (Roslyn.FirstOrDefault(a => string.Equals(a.GetName().Name, assemblyName.Name, StringComparison.Ordinal)) is { } roslyn)
            {
                return roslyn;
            }

            if (Default.Assemblies.FirstOrDefault(a => AssemblyName.ReferenceMatchesDefinition(assemblyName, a.GetName())) is { } shared)
            {
                return shared;
            }

            var local = System.IO.Path.Combine(_folder, assemblyName.Name + ".dll");
            return File.Exists(local) ? LoadFromAssemblyPath(local) : null;
        }
    }
}
