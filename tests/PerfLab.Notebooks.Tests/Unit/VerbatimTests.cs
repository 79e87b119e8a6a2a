using Microsoft.CodeAnalysis;
using PerfLab.Notebooks.Tests.Support;
using Xunit.Abstractions;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>
/// The course writes its own prose and code: nothing long is copied from the posts (their digests), word for word
/// or with the names changed.
/// </summary>
public class VerbatimTests(ITestOutputHelper output)
{
    private static string DataPath(string name) => Path.Combine(Repo.Root, "tests", "PerfLab.Notebooks.Tests", "Data", name);

    private static string AllowedPath => DataPath("verbatim-allowed.txt");

    private static string FingerprintPath => DataPath("digest-shingles.bin");

    // The renamed copies still to rewrite, as the messages name it.
    private const string PendingList = "tests/PerfLab.Notebooks.Tests/Data/renamed-copies-pending.txt";

    // The digests where they are (null in CI), and the fingerprint to check against: the committed one, which must be
    // byte for byte the one they give where they are (PERFLAB_UPDATE_FINGERPRINT=1 makes it again from them).
    private static readonly Lazy<(IReadOnlyList<(string Name, string Text)>? Digests, VerbatimRuns.Fingerprint Fingerprint)> Reference = new(() =>
    {
        var folder = DigestsFolder.Find(Repo.Root);
        var digests = folder is null ? null : VerbatimRuns.ReadDigests(folder);
        var fresh = digests is null ? null : VerbatimRuns.Fingerprint.Of(digests);
        if (fresh is not null && Environment.GetEnvironmentVariable("PERFLAB_UPDATE_FINGERPRINT") == "1")
        {
            fresh.Write(FingerprintPath);
        }

        Assert.True(fresh is null || fresh.ToBytes().SequenceEqual(File.ReadAllBytes(FingerprintPath)),
            $"{FingerprintPath} is not what the digests in {folder} give now (they, or the way it is made, changed): run the verbatim tests with PERFLAB_UPDATE_FINGERPRINT=1 and commit the file.");
        return (digests, fresh ?? VerbatimRuns.Fingerprint.Read(FingerprintPath));
    });

    [Fact]
    public void The_course_shares_no_long_verbatim_run_with_the_posts_digests()
    {
        var windows = Reference.Value.Fingerprint.Windows;
        Assert.True(windows.Count > 10_000, $"The fingerprint holds only {windows.Count} windows: it was not made from the digests.");
        var allowed = VerbatimRuns.ReadAllowed(AllowedPath);
        var shared = new List<VerbatimRuns.Run>();
        foreach (var (file, part, text) in VerbatimRuns.CourseTexts(Repo.Root))
        {
            var tokens = VerbatimRuns.Tokenize(text);
            foreach (var (start, length) in VerbatimRuns.SharedRuns(tokens, windows))
            {
                var run = tokens.Skip(start).Take(length).ToList();
                if (VerbatimRuns.Reportable(run, allowed))
                {
                    var where = (part.Length > 0 ? part + ", " : "") + $"line {tokens[start].Line}";
                    shared.Add(new VerbatimRuns.Run(file, where, length, VerbatimRuns.Joined(run)));
                }
            }
        }

        Assert.True(shared.Count == 0,
            "Written in the posts' words (rewrite each in the course's own words and code; facts and API names may stay):\n" + string.Join("\n", shared));
    }

    [Fact]
    public void The_course_has_no_renamed_copy_of_the_digests_code_but_the_pending_ones()
    {
        var (digests, fingerprint) = Reference.Value;
        Assert.True(fingerprint.CodeWindows.Count > 2_000, $"The fingerprint holds only {fingerprint.CodeWindows.Count} code windows: it was not made from the digests.");
        var pending = CodeRuns.ReadPending(Path.Combine(Repo.Root, PendingList));
        output.WriteLine($"Renamed copies of the digests' code still to rewrite ({pending.Count}, {PendingList}):");
        foreach (var item in pending)
        {
            output.WriteLine("  " + item);
        }

        Assert.True(fingerprint.Bodies.Count > 500, $"The fingerprint holds only {fingerprint.Bodies.Count} code bodies: it was not made from the digests.");
        var copies = CodeRuns.CourseCode(Repo.Root).SelectMany(CodeRuns.Pieces)
            .SelectMany(p => CodeRuns.Copies(p, fingerprint.CodeWindows).Concat(BenchmarkBodies.Copies(p, fingerprint.Bodies))).ToList();
        var unlisted = WithDigestText(copies.Where(c => !pending.Any(p => p.Matches(c))).ToList());
        var gone = pending.Where(p => !copies.Any(p.Matches)).ToList();

        Assert.True(unlisted.Count == 0 && gone.Count == 0,
            (unlisted.Count == 0 ? "" :
                "The posts' code with other names (write the course's own benchmark: its own structure, helpers and data where the figure allows; "
                + $"never add a new copy to {PendingList}):\n" + string.Join("\n", unlisted) + "\n")
            + (gone.Count == 0 ? "" :
                $"Listed in {PendingList} but no longer a copy there (rewritten or moved: remove the line, or correct its cell or lines):\n"
                + string.Join("\n", gone.Select(p => "  " + p))));
    }

    // Copies with the digests' text beside the course's, where the digests are here.
    private static List<CodeRuns.Copy> WithDigestText(List<CodeRuns.Copy> copies)
    {
        if (Reference.Value.Digests is not { } digests || copies.Count == 0)
        {
            return copies;
        }

        var digestPieces = CodeRuns.DigestPieces(digests).ToDictionary(p => CodeRuns.PlaceOf(p.Snippet));
        return copies.Select(c => c with { Digest = CodeRuns.DigestText(c, digestPieces) }).ToList();
    }

    [Fact]
    public void A_renamed_copy_of_a_benchmark_body_is_found_with_its_lines_and_figure_and_a_rewritten_one_is_not()
    {
        const string digest = """
            **J99 — L10 — digits counted in a string (`CountDigits`)**
            - Code: `private string _text = "a1b2c3";`. `[Benchmark] public int CountDigits()` counts them: `int count = 0; foreach (char c in _text) if (char.IsAsciiDigit(c)) count++; return count;`.
            """;
        var reference = VerbatimRuns.Fingerprint.Of([("post-net10-digest.md", digest)]);
        var digestPieces = CodeRuns.DigestPieces([("post-net10-digest.md", digest)]).ToDictionary(p => CodeRuns.PlaceOf(p.Snippet));
        // A test fixture, as Sources.cs holds them: the benchmark inside a raw string.
        const string renamed = """"
            public static class Fixtures
            {
                public static string Census() => """
                    public class Census
                    {
                        private readonly string _input = "x9y8";

                        [Benchmark]
                        public int Figures()
                        {
                            int found = 0;
                            foreach (char ch in _input) if (char.IsAsciiDigit(ch)) found++;
                            return found;
                        }
                    }
                    """;
            }
            """";
        const string rewritten = """
            public class Census
            {
                private readonly string _input = "x9y8";

                [Benchmark]
                public int Figures()
                {
                    var digits = 0;
                    for (var i = 0; i < _input.Length; i++)
                    {
                        digits += char.IsAsciiDigit(_input[i]) ? 1 : 0;
                    }

                    return digits;
                }
            }
            """;

        var found = CodeRuns.Pieces(new CodeRuns.Snippet("tests/Fixtures.cs", "", renamed, 1, SourceCodeKind.Regular))
            .SelectMany(p => CodeRuns.Copies(p, reference.CodeWindows)).ToList();
        var notFound = CodeRuns.Pieces(new CodeRuns.Snippet("notebooks/x.ipynb", "cell 3", rewritten, 1, SourceCodeKind.Script))
            .SelectMany(p => CodeRuns.Copies(p, reference.CodeWindows)).ToList();

        var copy = Assert.Single(found);
        Assert.Equal((11, 13), (copy.FirstLine, copy.LastLine)); // the body's three lines, in the file's numbering
        Assert.Equal([new CodeRuns.DigestPlace("N10-J99", "post-net10-digest.md", 2)], copy.Places);
        Assert.Equal("int found = 0; foreach (char ch in _input) if (char.IsAsciiDigit(ch)) found++; return found;", copy.Course);
        Assert.Equal("int count = 0; foreach (char c in _text) if (char.IsAsciiDigit(c)) count++; return count;", CodeRuns.DigestText(copy, digestPieces));
        Assert.StartsWith("tests/Fixtures.cs lines 11-13: 27 tokens of N10-J99 (post-net10-digest.md line 2) with other names", copy.ToString(), StringComparison.Ordinal);
        Assert.Empty(notFound);
    }

    [Fact]
    public void A_one_line_benchmark_renamed_or_with_its_value_behind_a_constant_is_a_copy_and_one_with_its_own_value_or_shape_is_not()
    {
        const string digest = """
            **J98 — L20 — a suffix compared (`IsReport`)**
            - Code: `[Arguments("q3.pdf")] public bool IsReport(string file) => file.EndsWith(".pdf", StringComparison.Ordinal);`.
            **J97 — L40 — a wrapper read back (`Read`)**
            - Code: `private sealed class Box { public Box(int n) => Value = n; public int Value { get; } }`.
            - Code: `public int Read() { return new Box(7).Value; }`.
            """;
        var bodies = BenchmarkBodies.DigestBodies([("post-net10-digest.md", digest)]);
        const string course = """
            public class Copies
            {
                private const string Pdf = ".pdf";

                [Benchmark]
                public bool Renamed(string name) => name.EndsWith(".pdf", StringComparison.Ordinal);

                [Benchmark]
                public bool BehindAConstant(string name)
                {
                    return name.EndsWith(Pdf, StringComparison.Ordinal);
                }

                [Benchmark]
                public int Wrapped() => new Holder(7).Contents;

                private sealed class Holder(int contents)
                {
                    public int Contents { get; } = contents;
                }
            }
            """;
        const string own = """
            public class Own
            {
                private readonly Holder _holder = new(7);
                private readonly string _suffix = ".csv";

                [Benchmark]
                public bool OtherValue(string name) => name.EndsWith(".csv", StringComparison.Ordinal);

                [Benchmark]
                public bool OtherShape(string name) => name.Length > 4 && name.EndsWith(_suffix, StringComparison.Ordinal);

                [Benchmark]
                public int OtherData() => new Holder(12).Contents;

                [Benchmark]
                public int Helper() => Read(_holder);

                private static int Read(Holder holder) => holder.Contents;

                private sealed class Holder(int contents)
                {
                    public int Contents { get; } = contents;
                }
            }
            """;

        var found = CodeRuns.Pieces(new CodeRuns.Snippet("notebooks/x.ipynb", "cell 3", course, 1, SourceCodeKind.Script))
            .SelectMany(p => BenchmarkBodies.Copies(p, bodies)).ToList();
        var notFound = CodeRuns.Pieces(new CodeRuns.Snippet("notebooks/x.ipynb", "cell 5", own, 1, SourceCodeKind.Script))
            .SelectMany(p => BenchmarkBodies.Copies(p, bodies)).ToList();

        Assert.Equal(["Renamed", "BehindAConstant", "Wrapped"], found.Select(c => c.Course.Split(':')[0]));
        Assert.Equal([6, 11, 15], found.Select(c => c.FirstLine));
        Assert.Equal(["N10-J98", "N10-J98", "N10-J97"], found.Select(c => c.Places.Single().Figure));
        Assert.True(notFound.Count == 0, string.Join("\n", notFound));
    }

    [Fact]
    public void Idioms_the_posts_also_write_and_lists_of_numbers_are_not_copies()
    {
        // Each of these is in the digests' code too, with other names, in runs of up to 24 tokens: one short of a window.
        // The numbers are N9-J14's input, 41 tokens with four words.
        const string idioms = """
            public class Ordinary
            {
                private readonly int[] _values = Enumerable.Range(0, 10).ToArray();
                private readonly Vector128<byte> _lanes = Vector128.Create((byte)0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

                [Benchmark]
                public int Total() => Add(_values);

                [MethodImpl(MethodImplOptions.NoInlining)]
                private static int Add(int[] array)
                {
                    int sum = 0;
                    for (int i = 0; i < array.Length; i++) sum += array[i];
                    return sum;
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private static void Store(int value, Span<byte> destination) => destination[0] = (byte)value;
            }
            """;

        var copies = CodeRuns.Pieces(new CodeRuns.Snippet("notebooks/x.ipynb", "cell 3", idioms, 1, SourceCodeKind.Script))
            .SelectMany(p => CodeRuns.Copies(p, Reference.Value.Fingerprint.CodeWindows)).ToList();

        Assert.True(copies.Count == 0, string.Join("\n", WithDigestText(copies)));
    }

    [Fact]
    public void A_pending_entry_matches_a_copy_in_its_cell_or_lines_of_its_figure_only()
    {
        var places = new[] { new CodeRuns.DigestPlace("N10-J16", "post-net10-digest.md", 291) };
        var inCell = new CodeRuns.Copy("notebooks/jit/04.ipynb", "cell 15", 26, 29, places, "course", ["shape"]);
        var inLines = inCell with { File = "tests/Sources.cs", Part = "", FirstLine = 120, LastLine = 124 };

        Assert.True(new CodeRuns.PendingCopy("notebooks/jit/04.ipynb", "cell 15", "N10-J16").Matches(inCell));
        Assert.False(new CodeRuns.PendingCopy("notebooks/jit/04.ipynb", "cell 13", "N10-J16").Matches(inCell));
        Assert.False(new CodeRuns.PendingCopy("notebooks/jit/04.ipynb", "cell 15", "N10-J19").Matches(inCell));
        Assert.True(new CodeRuns.PendingCopy("tests/Sources.cs", "lines 118-121", "N10-J16").Matches(inLines));
        Assert.False(new CodeRuns.PendingCopy("tests/Sources.cs", "lines 100-119", "N10-J16").Matches(inLines));
    }

    [Fact]
    public void A_copied_run_is_found_with_its_line_and_a_short_or_rewritten_one_is_not()
    {
        var reference = VerbatimRuns.Fingerprint.Of([("post-net10-digest.md", "The loop walks the list once and adds each price to the running total before it returns the sum to the caller.")]);
        var copied = "Intro line.\nHere the loop walks the list once and adds each price to the running total, then stops.";
        var tooShort = "We know the loop walks the list once and adds each price quickly.";
        var rewritten = "A single pass over the list accumulates every price into a total, which the method returns.";

        var found = VerbatimRuns.SharedRuns(VerbatimRuns.Tokenize(copied), reference.Windows).ToList();

        var (start, length) = Assert.Single(found);
        Assert.Equal(2, VerbatimRuns.Tokenize(copied)[start].Line);
        Assert.Equal(14, length); // "the loop walks ... running total" (the comma ends the shared run)
        Assert.Empty(VerbatimRuns.SharedRuns(VerbatimRuns.Tokenize(tooShort), reference.Windows));
        Assert.Empty(VerbatimRuns.SharedRuns(VerbatimRuns.Tokenize(rewritten), reference.Windows));
    }

    [Fact]
    public void Runs_of_marks_and_numbers_and_allowed_boilerplate_are_not_reported_but_words_are()
    {
        var allowed = new[] { VerbatimRuns.Joined(VerbatimRuns.Tokenize("int[] values = Enumerable.Range(0, 1000).ToArray();")) };
        var numbers = VerbatimRuns.Tokenize("1, 2, 3, 4, 5, 6, 7, 8");
        var boilerplate = VerbatimRuns.Tokenize("= Enumerable.Range(0, 1000).ToArray();");
        var words = VerbatimRuns.Tokenize("the loop walks the list once and adds each price to the running total");

        Assert.False(VerbatimRuns.Reportable(numbers, allowed));
        Assert.False(VerbatimRuns.Reportable(boilerplate, allowed));
        Assert.True(VerbatimRuns.Reportable(words, allowed));
    }
}
