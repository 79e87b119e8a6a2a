using System.Collections.Immutable;
using System.Globalization;
using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Scripting;
using Microsoft.CodeAnalysis.Scripting.Hosting;
using PerfLab.Benchmarks;
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

    private static readonly CSharpParseOptions ParseOptions = CSharpParseOptions.Default.WithLanguageVersion(LanguageVersion.Latest);

    private readonly InteractiveAssemblyLoader _loader;
    private readonly string _prefix = "PerfLabCells_" + Guid.NewGuid().ToString("N")[..8] + "_";
    private readonly List<CellLibrary> _current = []; // the last version of each name whose cell ran
    private readonly List<CellLibrary> _loaded = []; // every library loaded: load contexts bind to them by name and version
    private int _builds;
    private int _names;

    public CellLibraries(InteractiveAssemblyLoader loader)
    {
        _loader = loader;
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

        var usings = EarlierUsings(previous, CellAliases(parts));
        var references = SessionReferences(previous, options)
            .Concat(current.Where(l => l.Name != name).Select(l => l.Reference))
            .ToArray();
        var compiled = Compile(name, version, parts, usings, references, options.OptimizationLevel, options.AllowUnsafe, options.MetadataResolver, cancellationToken);
        if (compiled.Image is not { } bytes)
        {
            return new BuiltLibrary(null, compiled.Errors);
        }

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

    /// <summary>The aliases a cell's own using directives define: they win over earlier cells' aliases of the same name.</summary>
    /// <param name="parts">The cell, split.</param>
    public static HashSet<string> CellAliases(CellParts parts) =>
        ((CompilationUnitSyntax)CSharpSyntaxTree.ParseText(parts.Declarations, ParseOptions).GetRoot())
            .Usings.Where(u => u.Alias is not null).Select(u => u.Alias!.Name.ToString()).ToHashSet(StringComparer.Ordinal);

    /// <summary>
    /// A cell's declarations compiled as a library with the regex generator of the runtime this process runs
    /// on (.NET 10): its image, or the errors at the cell's lines. Both kernels' libraries are built here.
    /// </summary>
    /// <param name="name">The assembly name.</param>
    /// <param name="version">The assembly version.</param>
    /// <param name="parts">The cell, split.</param>
    /// <param name="usings">Global using lines: what script code sees without writing them (earlier cells' usings, default imports).</param>
    /// <param name="references">What the library compiles against.</param>
    /// <param name="optimization">The session's optimization level.</param>
    /// <param name="allowUnsafe">Whether the session allows unsafe code.</param>
    /// <param name="resolver">Resolves #r-style references the declarations' attributes may name; null for none.</param>
    /// <param name="cancellationToken">Stops the compile.</param>
    /// <param name="publicKey">A public key to give the library a strong name (public signing), or default for none.</param>
    public static (byte[]? Image, IReadOnlyList<Diagnostic> Errors) Compile(
        string name, Version version, CellParts parts, IReadOnlyList<string> usings, IReadOnlyList<MetadataReference> references,
        OptimizationLevel optimization, bool allowUnsafe, MetadataReferenceResolver? resolver, CancellationToken cancellationToken,
        ImmutableArray<byte> publicKey = default)
    {
        var cellTree = CSharpSyntaxTree.ParseText(parts.Declarations, ParseOptions, path: "", cancellationToken: cancellationToken);
        var compilationOptions = new CSharpCompilationOptions(
            OutputKind.DynamicallyLinkedLibrary,
            optimizationLevel: optimization,
            allowUnsafe: allowUnsafe,
            metadataReferenceResolver: resolver);
        if (!publicKey.IsDefaultOrEmpty)
        {
            compilationOptions = compilationOptions.WithCryptoPublicKey(publicKey).WithPublicSign(true);
        }

        CSharpCompilation Compile(IEnumerable<string> kept) => CSharpCompilation.Create(
            name,
            [cellTree, CSharpSyntaxTree.ParseText(SessionText(kept, version), ParseOptions, SessionFile, cancellationToken: cancellationToken)],
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
        var generator = RegexGenerator.Load(new HostLayout().RegexGeneratorPath(RuntimeCatalog.Find("net10.0")));
        var generated = generator.Run(compilation, cancellationToken);
        using var image = new MemoryStream();
        var emit = generated.Compilation.Emit(image, cancellationToken: cancellationToken);
        var errors = generated.ErrorsWith(emit.Diagnostics).OrderBy(d => d.Location.GetLineSpan().StartLinePosition).ToArray();
        return errors.Length > 0 || !emit.Success ? (null, errors) : (image.ToArray(), []);
    }

    /// <summary>
    /// What a script cell sees without writing a using: <see cref="DefaultUsings.Cell"/> and, in order, the usings of
    /// <paramref name="earlierUsings"/> (scripting carries them from cell to cell), as global usings. An
    /// alias the cell defines itself wins.
    /// </summary>
    /// <param name="earlierUsings">The using directives of earlier cells, oldest first.</param>
    /// <param name="cellAliases">The aliases the cell defines.</param>
    public static List<string> GlobalUsings(IEnumerable<UsingDirectiveSyntax> earlierUsings, HashSet<string> cellAliases)
    {
        var byKey = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var import in DefaultUsings.Cell)
        {
            byKey[import] = DefaultUsings.AsGlobalUsing(import);
        }

        foreach (var directive in earlierUsings)
        {
            var key = directive.Alias?.Name.ToString() ?? directive.StaticKeyword.ToString() + directive.NamespaceOrType;
            if (directive.Alias is not null && cellAliases.Contains(key))
            {
                continue;
            }

            var text = directive.WithoutTrivia().ToString().ReplaceLineEndings(" ");
            byKey[key] = directive.GlobalKeyword.IsKind(SyntaxKind.None) ? "global " + text : text;
        }

        return [.. byKey.Values];
    }

    // Lines 1..n: a global using per using of an earlier cell; the last line: the version.
    private static string SessionText(IEnumerable<string> usings, Version version) =>
        string.Concat(usings.Select(u => u + "\n")) + $"[assembly: System.Reflection.AssemblyVersion(\"{version}\")]\n";

    // Earlier cells' usings come from the chain of submissions, oldest first.
    private List<string> EarlierUsings(Script? previous, HashSet<string> cellAliases) =>
        GlobalUsings(
            Chain(previous).Reverse().SelectMany(c => c.SyntaxTrees).SelectMany(t => ((CompilationUnitSyntax)t.GetRoot()).Usings),
            cellAliases);

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
