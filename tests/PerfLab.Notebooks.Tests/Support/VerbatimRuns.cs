using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using PerfLab.Course;

namespace PerfLab.Notebooks.Tests.Support;

/// <summary>
/// Finds text the course shares word for word with the digests of the "Performance Improvements in
/// .NET" posts (../shared/reference, not in the repository). Text is cut into tokens (words, numbers
/// and single punctuation marks, lower-cased, markdown marks dropped); every run of
/// <see cref="Window"/> tokens is hashed. A run of at least <see cref="MinimumRun"/> tokens whose
/// windows all occur in the digests is reported: long enough that API calls and citations of figures
/// (which the course must share) do not reach it, short enough for a copied one-line lambda.
/// The digests' hashes are committed (Data/digest-shingles.bin), with those of their code's windows
/// (<see cref="CodeRuns"/>), so the checks run where the digests are not; where they are, the committed
/// file must match them.
/// </summary>
public static partial class VerbatimRuns
{
    /// <summary>Tokens per hashed window.</summary>
    public const int Window = 12;

    /// <summary>The shortest shared run reported, in tokens.</summary>
    public const int MinimumRun = 14;

    private const string Magic = "PLVR3";

    /// <summary>A token and the line of its text it comes from (1-based).</summary>
    public readonly record struct Token(string Text, int Line);

    /// <summary>A run of tokens of a course file found in the digests.</summary>
    public sealed record Run(string File, string Where, int Tokens, string Text)
    {
        public override string ToString() => $"{File} {Where}: {Tokens} tokens shared with the digests: \"{Text}\"";
    }

    /// <summary>
    /// What the tests keep of the digests: the hashes of their word windows, those of their code's windows
    /// (<see cref="CodeRuns"/>) and of their code's bodies (<see cref="BenchmarkBodies"/>) with the places that hold
    /// each, and the SHA-256 of the digests they come from.
    /// </summary>
    public sealed record Fingerprint(
        byte[] DigestsHash, HashSet<uint> Windows, IReadOnlyDictionary<ulong, CodeRuns.DigestPlace[]> CodeWindows,
        IReadOnlyDictionary<ulong, CodeRuns.DigestPlace[]> Bodies)
    {
        /// <summary>The file's bytes: the same digests, made the same way, give the same bytes.</summary>
        public byte[] ToBytes()
        {
            using var stream = new MemoryStream();
            using var writer = new BinaryWriter(stream);
            writer.Write(Encoding.ASCII.GetBytes(Magic));
            writer.Write(Window);
            writer.Write(CodeRuns.Window);
            writer.Write(CodeRuns.ApiNamesHash);
            writer.Write(DigestsHash);
            var sorted = Windows.Order().ToArray();
            writer.Write(sorted.Length);
            foreach (var hash in sorted)
            {
                writer.Write(hash);
            }

            var places = CodeWindows.Values.Concat(Bodies.Values).SelectMany(p => p).Distinct()
                .OrderBy(p => p.Digest, StringComparer.Ordinal).ThenBy(p => p.Line).ThenBy(p => p.Figure, StringComparer.Ordinal).ToList();
            writer.Write(places.Count);
            foreach (var place in places)
            {
                writer.Write(place.Figure);
                writer.Write(place.Digest);
                writer.Write(place.Line);
            }

            var index = places.Select((place, i) => (place, i)).ToDictionary(p => p.place, p => p.i);
            foreach (var hashes in new[] { CodeWindows, Bodies })
            {
                writer.Write(hashes.Count);
                foreach (var (hash, held) in hashes.OrderBy(w => w.Key))
                {
                    writer.Write(hash);
                    writer.Write(held.Length);
                    foreach (var i in held.Select(p => index[p]).Order())
                    {
                        writer.Write(i);
                    }
                }
            }

            writer.Flush();
            return stream.ToArray();
        }

        public void Write(string path) => File.WriteAllBytes(path, ToBytes());

        public static Fingerprint Read(string path)
        {
            using var reader = new BinaryReader(File.OpenRead(path));
            var magic = Encoding.ASCII.GetString(reader.ReadBytes(Magic.Length));
            var window = magic == Magic ? reader.ReadInt32() : 0;
            var codeWindow = magic == Magic ? reader.ReadInt32() : 0;
            if (magic != Magic || window != Window || codeWindow != CodeRuns.Window)
            {
                throw new InvalidDataException($"{path} is not a fingerprint of {Window}-token word windows, {CodeRuns.Window}-token code windows and benchmark bodies ({magic}): make it again where the digests are (PERFLAB_UPDATE_FINGERPRINT=1).");
            }

            if (reader.ReadUInt64() != CodeRuns.ApiNamesHash)
            {
                throw new InvalidDataException($"{path} was made with other .NET API names than this runtime's and BenchmarkDotNet's (CodeRuns.ApiNames), so its code windows would not match: make it again where the digests are (PERFLAB_UPDATE_FINGERPRINT=1).");
            }

            var digestsHash = reader.ReadBytes(32);
            var count = reader.ReadInt32();
            var windows = new HashSet<uint>(count);
            for (var i = 0; i < count; i++)
            {
                windows.Add(reader.ReadUInt32());
            }

            var places = new CodeRuns.DigestPlace[reader.ReadInt32()];
            for (var i = 0; i < places.Length; i++)
            {
                places[i] = new CodeRuns.DigestPlace(reader.ReadString(), reader.ReadString(), reader.ReadInt32());
            }

            Dictionary<ulong, CodeRuns.DigestPlace[]> ReadPlaced()
            {
                var entries = reader.ReadInt32();
                var placed = new Dictionary<ulong, CodeRuns.DigestPlace[]>(entries);
                for (var i = 0; i < entries; i++)
                {
                    var hash = reader.ReadUInt64();
                    var held = new CodeRuns.DigestPlace[reader.ReadInt32()];
                    for (var p = 0; p < held.Length; p++)
                    {
                        held[p] = places[reader.ReadInt32()];
                    }

                    placed.Add(hash, held);
                }

                return placed;
            }

            var codeWindows = ReadPlaced();
            return new Fingerprint(digestsHash, windows, codeWindows, ReadPlaced());
        }

        /// <summary>The fingerprint of digests (file name and text, in file-name order).</summary>
        public static Fingerprint Of(IReadOnlyList<(string Name, string Text)> digests)
        {
            var windows = new HashSet<uint>();
            foreach (var (_, text) in digests)
            {
                windows.UnionWith(Hashes(Tokenize(text)));
            }

            var codeWindows = new Dictionary<ulong, HashSet<CodeRuns.DigestPlace>>();
            foreach (var piece in CodeRuns.DigestPieces(digests))
            {
                var place = CodeRuns.PlaceOf(piece.Snippet);
                foreach (var hash in CodeRuns.Hashes(piece.Tokens))
                {
                    (codeWindows.TryGetValue(hash, out var held) ? held : codeWindows[hash] = []).Add(place);
                }
            }

            var digestsHash = SHA256.HashData(Encoding.UTF8.GetBytes(string.Join("\u0000", digests.Select(d => d.Text))));
            return new Fingerprint(digestsHash, windows, codeWindows.ToDictionary(w => w.Key, w => w.Value.ToArray()), BenchmarkBodies.DigestBodies(digests));
        }
    }

    /// <summary>The digests' files, as (file name, text), in file-name order.</summary>
    public static IReadOnlyList<(string Name, string Text)> ReadDigests(string folder) =>
        Directory.EnumerateFiles(folder, "post-*-digest.md").Order(StringComparer.Ordinal)
            .Select(path => (Path.GetFileName(path), File.ReadAllText(path)))
            .ToList();

    /// <summary>Words, numbers and punctuation marks of <paramref name="text"/>, lower-cased, with their lines.</summary>
    public static List<Token> Tokenize(string text)
    {
        var tokens = new List<Token>();
        var line = 1;
        var last = 0;
        foreach (Match match in TokenPattern().Matches(text))
        {
            line += text.AsSpan(last, match.Index - last).Count('\n');
            last = match.Index;
            tokens.Add(new Token(match.Value.ToLowerInvariant(), line));
        }

        return tokens;
    }

    /// <summary>The entries of an allow-list file (paragraphs; # lines are comments), as token texts.</summary>
    public static IReadOnlyList<string> ReadAllowed(string path) =>
        File.ReadAllText(path).ReplaceLineEndings("\n").Split("\n\n")
            .Select(p => string.Join('\n', p.Split('\n').Where(l => !l.StartsWith('#'))))
            .Where(p => p.Trim().Length > 0)
            .Select(p => Joined(Tokenize(p)))
            .ToList();

    /// <summary>Whether a run is worth reporting: it holds words (not only marks and numbers) and lies inside no allowed entry.</summary>
    public static bool Reportable(IReadOnlyList<Token> run, IReadOnlyList<string> allowed) =>
        run.Count(t => char.IsLetter(t.Text[0]) && t.Text.Length > 1) >= 4 && !allowed.Any(a => a.Contains(Joined(run), StringComparison.Ordinal));

    /// <summary>Tokens as one string, a space between each.</summary>
    public static string Joined(IEnumerable<Token> tokens) => string.Join(' ', tokens.Select(t => t.Text));

    /// <summary>The runs of <paramref name="tokens"/> of at least <see cref="MinimumRun"/> tokens found in <paramref name="windows"/>.</summary>
    public static IEnumerable<(int Start, int Length)> SharedRuns(IReadOnlyList<Token> tokens, IReadOnlySet<uint> windows)
    {
        var hashes = Hashes(tokens);
        var i = 0;
        while (i < hashes.Count)
        {
            if (!windows.Contains(hashes[i]))
            {
                i++;
                continue;
            }

            var start = i;
            while (i < hashes.Count && windows.Contains(hashes[i]))
            {
                i++;
            }

            var length = i - start + Window - 1;
            if (length >= MinimumRun)
            {
                yield return (start, length);
            }
        }
    }

    /// <summary>
    /// The course's own text, as (file, part, text): every notebook cell, the benchmark and exercise
    /// sources, the published figures' JSON and the documentation.
    /// </summary>
    public static IEnumerable<(string File, string Part, string Text)> CourseTexts(string root)
    {
        IEnumerable<string> Files(string folder, string pattern) =>
            Directory.Exists(CourseRepository.PathOf(folder, root))
                ? Directory.EnumerateFiles(CourseRepository.PathOf(folder, root), pattern, SearchOption.AllDirectories)
                    .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                        && !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
                : [];

        foreach (var notebook in Files(CourseRepository.NotebooksFolder, "*.ipynb").Order(StringComparer.Ordinal))
        {
            var cells = JsonNode.Parse(File.ReadAllText(notebook))!["cells"]!.AsArray();
            for (var i = 0; i < cells.Count; i++)
            {
                var source = cells[i]!["source"];
                var text = source is JsonArray lines ? string.Concat(lines.Select(l => (string?)l)) : (string?)source ?? "";
                yield return (Path.GetRelativePath(root, notebook), $"cell {i}", text);
            }
        }

        var others = Files(CourseRepository.NotebooksFolder, "*.cs")
            .Concat(Files(CourseRepository.NotebooksFolder, "*.md"))
            .Concat(Files(CourseRepository.SamplesFolder, "*.cs"))
            .Concat(Files("bench", "*.cs"))
            .Concat(Files(CourseRepository.ReferenceSuiteFolder, "*.cs"))
            .Concat(Files(CourseRepository.PublishedFolder, "*.json"))
            .Concat(Files(Path.Combine("data", "corpora"), "*.md"))
            .Concat(Files(Path.Combine("helpers", "PerfLab.Notebooks", "Exercises"), "*.cs"))
            .Concat(Files(CourseRepository.DocsFolder, "*.md"))
            .Concat(Files("tests", "Sources.cs"))
            .Concat(new[] { "README.md", Path.Combine("data", "README.md") }.Select(f => Path.Combine(root, f)).Where(File.Exists));
        foreach (var file in others.Distinct().Order(StringComparer.Ordinal))
        {
            yield return (Path.GetRelativePath(root, file), "", File.ReadAllText(file));
        }
    }

    private static List<uint> Hashes(IReadOnlyList<Token> tokens)
    {
        var hashes = new List<uint>(Math.Max(0, tokens.Count - Window + 1));
        for (var start = 0; start + Window <= tokens.Count; start++)
        {
            // FNV-1a over the window's tokens, each followed by a separator no token contains.
            var hash = 2166136261u;
            for (var t = start; t < start + Window; t++)
            {
                foreach (var c in tokens[t].Text)
                {
                    hash = (hash ^ c) * 16777619u;
                }

                hash = (hash ^ 0x1F) * 16777619u;
            }

            hashes.Add(hash);
        }

        return hashes;
    }

    // Words and numbers, or any single mark except whitespace and markdown's emphasis, code, table and heading marks.
    [GeneratedRegex(@"[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_`*|#\\]")]
    private static partial Regex TokenPattern();
}
