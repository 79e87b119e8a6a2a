using System.Collections.Immutable;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Emit;
using Microsoft.CodeAnalysis.Text;
using PerfLab.Files;
using PerfLab.Results;
using PerfLab.Runtimes;

namespace PerfLab.Benchmarks;

/// <summary>A benchmark assembly compiled for one runtime.</summary>
/// <param name="Runtime">The runtime it targets.</param>
/// <param name="AssemblyPath">Where the DLL is.</param>
/// <param name="FromCache">True when an identical earlier compile was reused.</param>
internal sealed record CompiledBenchmark(PinnedRuntime Runtime, string AssemblyPath, bool FromCache);

/// <summary>
/// Compiles a reader's C# with Roslyn, in-process, once per target runtime: against that runtime's
/// reference assemblies (<see cref="PinnedRuntime.ReferenceAssemblies"/>) plus BenchmarkDotNet and PerfLab.Inputs (<see cref="HostLayout.CellReferences"/>),
/// optimized, latest C#, <see cref="DefaultUsings.Benchmark"/> and NETx_0_OR_GREATER symbols; a source
/// that uses [GeneratedRegex] also runs that runtime's regex generator. Errors, the generator's included,
/// point at the reader's file and lines.
/// </summary>
internal sealed class BenchmarkCompiler
{
    private const string BenchmarkAttribute = "BenchmarkDotNet.Attributes.BenchmarkAttribute";
    private readonly PerfLabHome _home;
    private readonly HostLayout _hosts;

    public BenchmarkCompiler(PerfLabHome home, HostLayout hosts)
    {
        _home = home;
        _hosts = hosts;
    }

    /// <summary>Compiles <paramref name="source"/> for every runtime, in parallel; all errors are reported together.</summary>
    public async Task<IReadOnlyList<CompiledBenchmark>> CompileAsync(string source, string sourcePath, IReadOnlyList<PinnedRuntime> runtimes, CancellationToken cancellationToken)
    {
        var outcomes = await Task.WhenAll(runtimes.Select(r => Task.Run(() => Compile(source, sourcePath, r, cancellationToken), cancellationToken))).ConfigureAwait(false);
        var errors = outcomes.SelectMany(o => o.Errors.Select(e => (o.Runtime, Error: e))).ToList();
        if (errors.Count > 0)
        {
            // An error every runtime reports is shown once; one only some runtimes see names them.
            var lines = errors
                .GroupBy(e => e.Error)
                .Select(g => g.Count() == runtimes.Count ? g.Key : $"{g.Key} [{string.Join(", ", g.Select(e => e.Runtime.Moniker))}]")
                .ToArray();
            throw new PerfLabException(
                $"{Path.GetFileName(sourcePath)} does not compile ({lines.Length} error{(lines.Length == 1 ? "" : "s")}).",
                "Fix the errors above; nothing was run.",
                lines);
        }

        var without = outcomes.Where(o => !o.HasBenchmarks).Select(o => o.Runtime.Moniker).ToArray();
        if (without.Length > 0)
        {
            var where = without.Length == outcomes.Length ? "" : $" when compiled for {string.Join(", ", without)}";
            throw new PerfLabException(
                $"{Path.GetFileName(sourcePath)} has no [Benchmark] method{where}.",
                "Mark at least one public method of a public class with [Benchmark] (BenchmarkDotNet.Attributes).");
        }

        return outcomes.Select(o => o.Compiled!).ToArray();
    }

    private sealed record Outcome(PinnedRuntime Runtime, CompiledBenchmark? Compiled, IReadOnlyList<string> Errors, bool HasBenchmarks);

    private Outcome Compile(string source, string sourcePath, PinnedRuntime runtime, CancellationToken cancellationToken)
    {
        var references = _hosts.CellReferences(runtime);
        var generators = _hosts.GeneratorsFor(source, runtime);
        // The default usings are compile input like the source: a build made with another list is another build.
        var usings = DefaultUsings.AsGlobalUsings(DefaultUsings.Benchmark);
        var key = CacheKey.Hash(
            [
                ("usings", usings),
                ("runtime", runtime.Moniker),
                ("host", _hosts.VersionOf(runtime)),
                ("roslyn", typeof(CSharpCompilation).Assembly.GetName().Version?.ToString() ?? ""),
                .. CacheKey.Optional("generators", generators),
                // As written: line endings are compiled into a verbatim string, so they are not normalized here.
                ("source", source),
            ]);
        var assemblyName = "PerfLabBench_" + key[..16];
        var folder = Path.Combine(_home.Builds, key[..32], runtime.Moniker);
        var output = Path.Combine(folder, assemblyName + ".dll");
        if (File.Exists(output))
        {
            return new Outcome(runtime, new CompiledBenchmark(runtime, output, FromCache: true), [], HasBenchmarks: true);
        }

        var parseOptions = new CSharpParseOptions(LanguageVersion.Latest, preprocessorSymbols: PreprocessorSymbols(runtime));
        var tree = CSharpSyntaxTree.ParseText(SourceText.From(source, Encoding.UTF8), parseOptions, sourcePath, cancellationToken);
        var usingsTree = CSharpSyntaxTree.ParseText(
            usings, parseOptions, "PerfLab.ImplicitUsings.g.cs", Encoding.UTF8, cancellationToken);
        var compilation = CSharpCompilation.Create(
            assemblyName,
            [tree, usingsTree],
            runtime.ReferenceAssemblies().Concat(references.Select(r => MetadataReference.CreateFromFile(r))),
            new CSharpCompilationOptions(
                OutputKind.DynamicallyLinkedLibrary,
                optimizationLevel: OptimizationLevel.Release,
                allowUnsafe: true,
                nullableContextOptions: NullableContextOptions.Enable,
                deterministic: true));

        // [GeneratedRegex] bodies come from this runtime's own generator, as in a project targeting it;
        // its errors (an invalid pattern) are reported like the compiler's, at the reader's line.
        var generated = generators is null ? null : RegexGenerator.Load(_hosts.RegexGeneratorPath(runtime)).Run(compilation, cancellationToken);
        compilation = generated?.Compilation ?? compilation;

        var result = Emit(compilation, cancellationToken);
        var errors = (generated is null ? result.Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error) : generated.ErrorsWith(result.Diagnostics))
            .OrderBy(d => d.Location.GetLineSpan().StartLinePosition)
            .Select(d => d.ToString())
            .ToArray();
        if (errors.Length > 0)
        {
            return new Outcome(runtime, null, errors, HasBenchmarks: false);
        }

        if (!HasBenchmarks(compilation))
        {
            return new Outcome(runtime, null, [], HasBenchmarks: false);
        }

        Directory.CreateDirectory(folder);
        AtomicFile.WriteAllBytes(output, result.Image);
        return new Outcome(runtime, new CompiledBenchmark(runtime, output, FromCache: false), [], HasBenchmarks: true);
    }

    private readonly record struct Emitted(ImmutableArray<Diagnostic> Diagnostics, byte[] Image);

    private static Emitted Emit(CSharpCompilation compilation, CancellationToken cancellationToken)
    {
        // An embedded PDB (line numbers only; code generation is the same) lets an exception the reader's code
        // throws in the host name the reader's line: `at Bad..cctor() in cell 7:line 5`.
        using var stream = new MemoryStream();
        var emit = compilation.Emit(stream, options: new EmitOptions(debugInformationFormat: DebugInformationFormat.Embedded), cancellationToken: cancellationToken);
        return new Emitted(emit.Diagnostics, emit.Success ? stream.ToArray() : []);
    }

    private static bool HasBenchmarks(CSharpCompilation compilation)
    {
        var attribute = compilation.GetTypeByMetadataName(BenchmarkAttribute);
        return attribute is not null && AllTypes(compilation.Assembly.GlobalNamespace)
            .SelectMany(t => t.GetMembers().OfType<IMethodSymbol>())
            .Any(m => m.GetAttributes().Any(a => SymbolEqualityComparer.Default.Equals(a.AttributeClass, attribute)));
    }

    private static IEnumerable<INamedTypeSymbol> AllTypes(INamespaceSymbol ns)
    {
        foreach (var type in ns.GetTypeMembers().SelectMany(Nested))
        {
            yield return type;
        }

        foreach (var child in ns.GetNamespaceMembers())
        {
            foreach (var type in AllTypes(child))
            {
                yield return type;
            }
        }

        static IEnumerable<INamedTypeSymbol> Nested(INamedTypeSymbol t) => t.GetTypeMembers().SelectMany(Nested).Prepend(t);
    }

    /// <summary>The symbols `dotnet build` defines for a Release build of <paramref name="runtime"/>.</summary>
    public static IReadOnlyList<string> PreprocessorSymbols(PinnedRuntime runtime)
    {
        var symbols = new List<string> { "RELEASE", "NET", "NETCOREAPP", runtime.SymbolStem };
        symbols.AddRange(["NETCOREAPP1_0_OR_GREATER", "NETCOREAPP1_1_OR_GREATER", "NETCOREAPP2_0_OR_GREATER", "NETCOREAPP2_1_OR_GREATER", "NETCOREAPP2_2_OR_GREATER", "NETCOREAPP3_0_OR_GREATER", "NETCOREAPP3_1_OR_GREATER"]);
        for (var major = 5; major <= runtime.Major; major++)
        {
            symbols.Add($"NET{major}_0_OR_GREATER");
        }

        return symbols;
    }
}
