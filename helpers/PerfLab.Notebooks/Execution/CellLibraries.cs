using System.Globalization;
using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Scripting;
using Microsoft.CodeAnalysis.Scripting.Hosting;
using PerfLab.Benchmarks;
using PerfLab.Generators;
using PerfLab.Runtimes;

namespace PerfLab.Notebooks.Execution;

/// <summary>The library made of one cell's declarations, loaded in this process.</summary>
/// <param name="Name">Its assembly name: the same for every version of one cell's types.</param>
/// <param name="Version">Higher for each library the session builds.</param>
/// <param name="TypeNames">The types it declares, as <see cref="CellParts.TypeNames"/>.</param>
/// <param name="Reference">What later compilations reference it by.</param>
/// <param name="Assembly">The loaded assembly.</param>
internal sealed record CellLibrary(string Name, Version Version, IReadOnlyList<string> TypeNames, MetadataReference Reference, Assembly Assembly);

/// <summary>A cell's declarations compiled: the library, or the errors that stopped it.</summary>
/// <param name="Library">The loaded library; null when there are errors.</param>
/// <param name="Errors">Generator and compiler errors, at the cell's lines.</param>
internal sealed record BuiltLibrary(CellLibrary? Library, IReadOnlyList<Diagnostic> Errors);

/// <summary>
/// The libraries of cells whose types use [GeneratedRegex]. Script compilations run no source generators
/// (and hold no namespaces or file types), so such a cell's using directives and type declarations are
/// compiled as a regular library against the session's references, with the regex generator of the
/// runtime the kernel runs on (.NET 10), emitted in memory, loaded, and registered with the session's
/// loader; the cell's statements then run as a submission that references it. A cell that declares one
/// of an earlier library's types again builds that library's name at a higher version: scripting binds
/// later submissions to the highest version of a name, so re-running an edited cell replaces its types.
/// </summary>
internal sealed class CellLibraries
{
    // The usings earlier cells brought into scope, and this library's version, go in a file of their own.
    private const string SessionFile = "(usings of earlier cells)";

    private readonly InteractiveAssemblyLoader _loader;
    private readonly IReadOnlyList<string> _defaultImports;
    private readonly string _prefix = "PerfLabCells_" + Guid.NewGuid().ToString("N")[..8] + "_";
    private readonly List<CellLibrary> _current = []; // the last version of each name whose cell ran
    private readonly List<CellLibrary> _loaded = []; // every library loaded: load contexts bind to them by name and version
    private int _builds;
    private int _names;

    public CellLibraries(InteractiveAssemblyLoader loader, IReadOnlyList<string> defaultImports)
    {
        _loader = loader;
        _defaultImports = defaultImports;
    }

    /// <summary>The types this session's cell libraries declare, by simple name: script code sees only their public parts.</summary>
    public IReadOnlySet<string> TypeNames
    {
        get
        {
            lock (_loaded)
            {
                return _loaded.SelectMany(l => l.TypeNames).Select(n => n[(n.LastIndexOf('.') + 1)..]).ToHashSet(StringComparer.Ordinal);
            }
        }
    }

    /// <summary>Whether <paramref name="code"/> takes this path: a cell declaring a type that uses [GeneratedRegex].</summary>
    /// <param name="code">The cell.</param>
    /// <param name="parts">The cell split in two, when it does.</param>
    public static bool Wants(string code, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out CellParts? parts)
    {
        // The text check keeps the parse off every other cell's path.
        parts = RegexGenerator.IsUsedBy(code) && BenchmarkCell.Split(code) is { UsesGeneratedRegex: true } split ? split : null;
        return parts is not null;
    }

    /// <summary>
    /// The types of <paramref name="parts"/> an earlier cell declared as script code: script lookup finds
    /// those first, so this cell's statements and later cells would silently use the old type.
    /// </summary>
    /// <param name="parts">The cell, split.</param>
    /// <param name="previous">The last submission that ran, or null before the first.</param>
    public static IReadOnlyList<string> HiddenByScriptTypes(CellParts parts, Script? previous) =>
        parts.TypeNames
            .Where(name => Chain(previous).Any(c => c.ScriptClass?.GetTypeMembers(name).Length > 0))
            .ToArray();

    /// <summary>Compiles, generates, emits and loads the declarations of a cell; nothing is kept until <see cref="Commit"/>.</summary>
    /// <param name="parts">The cell, split.</param>
    /// <param name="previous">The last submission that ran, or null before the first.</param>
    /// <param name="options">The session's script options (references, resolver, unsafe, optimization).</param>
    /// <param name="cancellationToken">Stops the compile.</param>
    public BuiltLibrary Build(CellParts parts, Script? previous, ScriptOptions options, CancellationToken cancellationToken)
    {
        // An earlier library that declares one of these types is the one this cell replaces.
        CellLibrary[] current;
        lock (_loaded)
        {
            current = [.. _current];
        }

        var replaced = current.LastOrDefault(l => l.TypeNames.Intersect(parts.TypeNames, StringComparer.Ordinal).Any());
        var name = replaced?.Name ?? _prefix + Interlocked.Increment(ref _names).ToString(CultureInfo.InvariantCulture);
        var build = Interlocked.Increment(ref _builds);
        var version = new Version(1, build / 60000, build % 60000, 0);

        var parseOptions = CSharpParseOptions.Default.WithLanguageVersion(LanguageVersion.Latest);
        var cellTree = CSharpSyntaxTree.ParseText(parts.Declarations, parseOptions, path: "", cancellationToken: cancellationToken);
        var cellAliases = ((CompilationUnitSyntax)cellTree.GetRoot(cancellationToken)).Usings.Where(u => u.Alias is not null).Select(u => u.Alias!.Name.ToString()).ToHashSet(StringComparer.Ordinal);
        var usings = EarlierUsings(previous, cellAliases);
        var references = SessionReferences(previous, options)
            .Concat(current.Where(l => l.Name != name).Select(l => l.Reference))
            .ToArray();
        var compilationOptions = new CSharpCompilationOptions(
            OutputKind.DynamicallyLinkedLibrary,
            optimizationLevel: options.OptimizationLevel,
            allowUnsafe: options.AllowUnsafe,
            metadataReferenceResolver: options.MetadataResolver);

        CSharpCompilation Compile(IEnumerable<string> kept) => CSharpCompilation.Create(
            name,
            [cellTree, CSharpSyntaxTree.ParseText(SessionText(kept, version), parseOptions, SessionFile, cancellationToken: cancellationToken)],
            references,
            compilationOptions);

        // A using of an earlier cell can name what only script code has (a class of that cell): it is dropped.
        var compilation = Compile(usings);
        var sessionTree = compilation.SyntaxTrees[1];
        var unresolved = compilation.GetSemanticModel(sessionTree).GetDiagnostics(cancellationToken: cancellationToken)
            .Where(d => d.Severity == DiagnosticSeverity.Error)
            .Select(d => d.Location.GetLineSpan().StartLinePosition.Line)
            .ToHashSet();
        if (unresolved.Count > 0)
        {
            compilation = Compile(usings.Where((_, line) => !unresolved.Contains(line)));
        }

        // The kernel runs on .NET 10: its generator writes the code this process runs (Lab's measured
        // processes compile the cell again with each runtime's own).
        var generator = RegexGenerator.Load(new HostLayout().RegexGenerator(RuntimeCatalog.Find("net10.0")));
        var generated = generator.Run(compilation, cancellationToken);
        using var image = new MemoryStream();
        var emit = generated.Compilation.Emit(image, cancellationToken: cancellationToken);
        var errors = generated.ErrorsWith(emit.Diagnostics).OrderBy(d => d.Location.GetLineSpan().StartLinePosition).ToArray();
        if (errors.Length > 0 || !emit.Success)
        {
            return new BuiltLibrary(null, errors);
        }

        var bytes = image.ToArray();
        var context = new LibraryLoadContext(this, name);
        var assembly = context.LoadFromStream(new MemoryStream(bytes));
        var library = new CellLibrary(name, version, parts.TypeNames, MetadataReference.CreateFromImage(bytes), assembly);
        lock (_loaded)
        {
            _loaded.Add(library);
        }

        _loader.RegisterDependency(assembly);
        return new BuiltLibrary(library, []);
    }

    /// <summary>The cell that built <paramref name="library"/> ran: later cells' libraries reference it, or replace it.</summary>
    /// <param name="library">A library from <see cref="Build"/>.</param>
    public void Commit(CellLibrary library)
    {
        lock (_loaded)
        {
            _current.RemoveAll(l => l.Name == library.Name);
            _current.Add(library);
        }
    }

    // Lines 1..n: a global using per using of an earlier cell; the last line: the version.
    private static string SessionText(IEnumerable<string> usings, Version version) =>
        string.Concat(usings.Select(u => u + "\n")) + $"[assembly: System.Reflection.AssemblyVersion(\"{version}\")]\n";

    // What a script cell sees without writing a using: the default imports and every earlier cell's usings
    // (scripting carries them from cell to cell), as global usings. An alias the cell defines itself wins.
    private List<string> EarlierUsings(Script? previous, HashSet<string> cellAliases)
    {
        var byKey = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var import in _defaultImports)
        {
            byKey[import] = $"global using global::{import};";
        }

        foreach (var compilation in Chain(previous).Reverse())
        {
            foreach (var directive in compilation.SyntaxTrees.SelectMany(t => ((CompilationUnitSyntax)t.GetRoot()).Usings))
            {
                var key = directive.Alias?.Name.ToString() ?? directive.StaticKeyword.ToString() + directive.NamespaceOrType;
                if (directive.Alias is not null && cellAliases.Contains(key))
                {
                    continue;
                }

                var text = directive.WithoutTrivia().ToString().ReplaceLineEndings(" ");
                byKey[key] = directive.GlobalKeyword.IsKind(SyntaxKind.None) ? "global " + text : text;
            }
        }

        return [.. byKey.Values];
    }

    // The references every earlier submission compiled with (options, #r), except cell libraries: the
    // current version of each is added by name.
    private List<MetadataReference> SessionReferences(Script? previous, ScriptOptions options)
    {
        HashSet<MetadataReference> libraries;
        lock (_loaded)
        {
            libraries = [.. _loaded.Select(l => l.Reference)];
        }

        var seen = new HashSet<string>(StringComparer.Ordinal);
        var references = new List<MetadataReference>();
        var all = Chain(previous).SelectMany(c => c.References).Concat(options.MetadataReferences);
        foreach (var reference in all.OfType<PortableExecutableReference>())
        {
            if (!libraries.Contains(reference) && (reference.FilePath is null || seen.Add(reference.FilePath)))
            {
                references.Add(reference);
            }
        }

        return references;
    }

    private static IEnumerable<Compilation> Chain(Script? last)
    {
        for (var compilation = last?.GetCompilation(); compilation is not null; compilation = compilation.ScriptCompilationInfo?.PreviousScriptCompilation)
        {
            yield return compilation;
        }
    }

    private Assembly? Find(AssemblyName name)
    {
        lock (_loaded)
        {
            return _loaded.FirstOrDefault(l => l.Name == name.Name && (name.Version is null || l.Version == name.Version))?.Assembly;
        }
    }

    // One context per library: two versions of one name cannot share a context. A reference to another
    // cell library, or to an assembly a cell loaded with #r, binds to the copy already loaded; the rest
    // (framework, helpers) falls back to the default context.
    private sealed class LibraryLoadContext(CellLibraries owner, string name) : AssemblyLoadContext("notebook cell library " + name)
    {
        protected override Assembly? Load(AssemblyName assemblyName) =>
            owner.Find(assemblyName)
            ?? AppDomain.CurrentDomain.GetAssemblies().FirstOrDefault(a =>
                !a.IsDynamic
                && GetLoadContext(a) != Default
                && GetLoadContext(a) is not LibraryLoadContext
                && AssemblyName.ReferenceMatchesDefinition(assemblyName, a.GetName()));
    }
}
