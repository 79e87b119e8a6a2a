using System.Collections.Immutable;
using System.Globalization;
using System.Security.Cryptography;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PerfLab.Files;
using PerfLab.Notebooks.Documents;

namespace PerfLab.Notebooks.Execution;

/// <summary>What a [GeneratedRegex] cell becomes in another kernel: a library file and the statements that reference it, or the errors.</summary>
/// <param name="Statements">The cell with its types blanked (lines kept), to run as the submission.</param>
/// <param name="LibraryPath">The library of the cell's usings and types; null when there are errors.</param>
/// <param name="Errors">Generator and compiler errors at the cell's lines, as the course kernel shows them; null when it built.</param>
internal sealed record SplitCell(string Statements, string? LibraryPath, ErrorOutput? Errors);

/// <summary>
/// The [GeneratedRegex] path of <see cref="CellLibraries"/> for a kernel that is not the course's own
/// (.NET Interactive, whose scripting runs no source generators either). That kernel's Roslyn is not the
/// helpers' Roslyn, so nothing crosses but text and files: the cells it ran come in as text (their usings
/// carry to later libraries, as script usings do), and a library goes out as a file the kernel references
/// by path. As in the course kernel, a cell that declares an earlier library's types again builds that
/// library's name at a higher version, and scripting binds later submissions to the highest version; the
/// libraries carry a strong name (public signing with a key made for the process), because that kernel's
/// assembly loader loads a second version of a name only for strong-named assemblies.
/// </summary>
internal sealed class CellLibraryFiles
{
    private readonly string _folder;
    private readonly string _prefix = "PerfLabCells_" + Guid.NewGuid().ToString("N")[..8] + "_";
    private readonly ImmutableArray<byte> _publicKey = PublicKey();
    private readonly List<UsingDirectiveSyntax> _usings = [];
    private readonly List<Library> _current = []; // the last version of each name
    private int _builds;

    /// <param name="folder">Where library files are written (created when needed).</param>
    public CellLibraryFiles(string folder)
    {
        _folder = folder;
    }

    /// <summary>A cell the kernel ran: its using directives are in scope for later cells.</summary>
    /// <param name="code">The cell's C#.</param>
    public void Ran(string code)
    {
        var root = (CompilationUnitSyntax)CSharpSyntaxTree.ParseText(code, CSharpParseOptions.Default.WithKind(SourceCodeKind.Script).WithLanguageVersion(LanguageVersion.Latest)).GetRoot();
        lock (_usings)
        {
            _usings.AddRange(root.Usings);
        }
    }

    /// <summary>The cell split and its library built, or null for a cell that does not declare a type using [GeneratedRegex].</summary>
    /// <param name="code">The cell's C#.</param>
    /// <param name="cancellationToken">Stops the compile.</param>
    public SplitCell? Split(string code, CancellationToken cancellationToken)
    {
        if (!CellLibraries.Wants(code, out var parts))
        {
            return null;
        }

        List<UsingDirectiveSyntax> usings;
        Library[] current;
        lock (_usings)
        {
            usings = [.. _usings];
            current = [.. _current];
        }

        // An earlier library that declares one of these types is the one this cell replaces.
        var replaced = current.LastOrDefault(l => l.TypeNames.Intersect(parts.TypeNames, StringComparer.Ordinal).Any());
        var build = Interlocked.Increment(ref _builds);
        var name = replaced?.Name ?? _prefix + build.ToString(CultureInfo.InvariantCulture);
        var version = new Version(1, build / 60000, build % 60000, 0);
        var references = ScriptReferences.Framework.Value
            .Concat(ScriptReferences.Shared.Values.Select(a => MetadataReference.CreateFromFile(a.Location)))
            .Concat(current.Where(l => l.Name != name).Select(l => MetadataReference.CreateFromFile(l.Path)))
            .ToArray();
        var compiled = CellLibraries.Compile(
            name, version, parts, CellLibraries.GlobalUsings(usings, CellLibraries.CellAliases(parts)), references,
            OptimizationLevel.Debug, allowUnsafe: true, resolver: null, cancellationToken, _publicKey);
        if (compiled.Image is not { } image)
        {
            var libraryTypes = current.SelectMany(l => l.TypeNames).Concat(parts.TypeNames).Select(n => n[(n.LastIndexOf('.') + 1)..]).ToHashSet(StringComparer.Ordinal);
            return new SplitCell(parts.Statements, null, CompileErrors.Describe(code, compiled.Errors, libraryTypes));
        }

        var path = Path.Combine(_folder, $"{name}.{version}.dll");
        Directory.CreateDirectory(_folder);
        AtomicFile.WriteAllBytes(path, image);
        lock (_usings)
        {
            _current.RemoveAll(l => l.Name == name);
            _current.Add(new Library(name, path, parts.TypeNames));
        }

        return new SplitCell(parts.Statements, path, null);
    }

    // A strong name needs only a public key: public signing writes no signature, and nothing checks one.
    // The key blob is the strong-name format (PublicKeyBlob header, then a CryptoAPI PUBLICKEYBLOB).
    private static ImmutableArray<byte> PublicKey()
    {
        using var rsa = RSA.Create(1024);
        var key = rsa.ExportParameters(includePrivateParameters: false);
        var modulus = key.Modulus!.Reverse().ToArray(); // little-endian
        var exponent = new byte[4];
        key.Exponent!.Reverse().ToArray().CopyTo(exponent, 0);
        using var blob = new MemoryStream();
        using var writer = new BinaryWriter(blob);
        writer.Write(0x00002400u); // signature algorithm: CALG_RSA_SIGN
        writer.Write(0x00008004u); // hash algorithm: CALG_SHA1
        writer.Write((uint)(20 + modulus.Length)); // the PUBLICKEYBLOB's length
        writer.Write((byte)0x06); // PUBLICKEYBLOB
        writer.Write((byte)0x02); // version
        writer.Write((ushort)0);
        writer.Write(0x00002400u); // CALG_RSA_SIGN
        writer.Write(0x31415352u); // "RSA1"
        writer.Write((uint)(modulus.Length * 8));
        writer.Write(exponent);
        writer.Write(modulus);
        writer.Flush();
        return [.. blob.ToArray()];
    }

    private sealed record Library(string Name, string Path, IReadOnlyList<string> TypeNames);
}
