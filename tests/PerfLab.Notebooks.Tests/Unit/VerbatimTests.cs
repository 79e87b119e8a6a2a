using PerfLab.Notebooks.Tests.Support;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>The course writes its own prose and code: nothing long is copied from the posts (their digests).</summary>
public class VerbatimTests
{
    private static string AllowedPath => Path.Combine(Repo.Root, "tests", "PerfLab.Notebooks.Tests", "Data", "verbatim-allowed.txt");

    private static string FingerprintPath => Path.Combine(Repo.Root, "tests", "PerfLab.Notebooks.Tests", "Data", "digest-shingles.bin");

    [Fact]
    public void The_course_shares_no_long_verbatim_run_with_the_posts_digests()
    {
        var digests = DigestsFolder.Find(Repo.Root);
        if (digests is not null && Environment.GetEnvironmentVariable("PERFLAB_UPDATE_FINGERPRINT") == "1")
        {
            VerbatimRuns.Fingerprint.Of(VerbatimRuns.ReadDigests(digests)).Write(FingerprintPath);
        }

        var committed = VerbatimRuns.Fingerprint.Read(FingerprintPath);
        var windows = committed.Windows;
        if (digests is not null)
        {
            // The digests are here: the committed fingerprint must be theirs.
            var fresh = VerbatimRuns.Fingerprint.Of(VerbatimRuns.ReadDigests(digests));
            Assert.True(fresh.DigestsHash.SequenceEqual(committed.DigestsHash),
                $"The digests in {digests} changed since {FingerprintPath} was made: run this test with PERFLAB_UPDATE_FINGERPRINT=1 and commit the file.");
            windows = fresh.Windows;
        }

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
    public void A_copied_run_is_found_with_its_line_and_a_short_or_rewritten_one_is_not()
    {
        var reference = VerbatimRuns.Fingerprint.Of(["The loop walks the list once and adds each price to the running total before it returns the sum to the caller."]);
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
