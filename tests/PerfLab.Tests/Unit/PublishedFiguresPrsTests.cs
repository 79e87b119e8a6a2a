using PerfLab.Course;
using PerfLab.Results;
using PerfLab.Tests.Support;

namespace PerfLab.Tests.Unit;

/// <summary>
/// A published figure's <c>prs</c> (printed under every results table that cites it) name only what the figure's
/// own digest entry credits, checked against Data/digest-prs.json, which must match the digests where they are.
/// </summary>
public class PublishedFiguresPrsTests
{
    private static string CommittedPath => RepoFiles.Path("tests/PerfLab.Tests/Data/digest-prs.json");

    [Fact]
    public void Every_pr_a_published_figure_lists_is_credited_by_its_digest_entry()
    {
        var catalog = PublishedFigures.Load(RepoFiles.Path(CourseRepository.PublishedFolder), RepoFiles.Path(CourseRepository.OutlineFile));
        var digests = DigestPrs.Extraction.Read(CommittedPath);

        var uncredited = catalog.Figures.Values
            .OrderBy(f => f.Id, StringComparer.Ordinal)
            .SelectMany(f => DigestPrs.Uncredited(f.Id, Listed(f), digests))
            .ToList();

        Assert.True(catalog.Figures.Count >= 130, $"{catalog.Figures.Count} figures");
        Assert.True(uncredited.Count == 0,
            "PRs that data/published lists for a figure but its digest entry does not credit (list only what the entry credits for the figure's change):\n"
            + string.Join("\n", uncredited));
    }

    [Fact]
    public void A_planted_pr_is_reported_with_its_figure_and_an_aside_is_told_apart()
    {
        var digests = DigestPrs.Extraction.Read(CommittedPath);

        var planted = DigestPrs.Uncredited("N10-J40", ["dotnet/runtime#110893", "dotnet/runtime#116978", "dotnet/runtime#108576"], digests).ToList();
        var unknown = DigestPrs.Uncredited("N10-X99", ["dotnet/runtime#1"], digests).ToList();

        Assert.Equal(
            new[]
            {
                "N10-J40 lists dotnet/runtime#116978, which its digest entry does not name.",
                "N10-J40 lists dotnet/runtime#108576, which its digest entry names only in a side remark (no benchmark of its own).",
            },
            planted);
        Assert.Equal(new[] { "N10-X99: the digests have no entry for this figure." }, unknown);
    }

    [Fact]
    public void The_committed_file_is_a_fresh_extraction_of_the_digests_where_they_are_here()
    {
        var folder = DigestsFolder.Find(RepoFiles.Path());
        if (folder is null)
        {
            return; // Not next to the repository: the committed file stands for them.
        }

        var fresh = DigestPrs.Extract(DigestPrs.ReadDigests(folder)).ToJson();
        if (Environment.GetEnvironmentVariable("PERFLAB_UPDATE_DIGEST_PRS") == "1")
        {
            File.WriteAllText(CommittedPath, fresh);
        }

        var committed = File.ReadAllText(CommittedPath).ReplaceLineEndings("\n");
        Assert.True(committed == fresh,
            $"{CommittedPath} is not what the digests in {folder} give now (they or the extraction changed): run this test with PERFLAB_UPDATE_DIGEST_PRS=1, check the diff and commit the file.");
        Assert.True(DigestPrs.Extraction.Read(CommittedPath).Figures.Count >= 190, "the extraction found too few entries: did a digest's entry lines change?");
    }

    [Fact]
    public void An_entry_credits_its_own_prs_and_tells_side_remarks_and_issues_apart()
    {
        const string digest = """
            ## 3. Entries

            **J01 — `First` (L10)** · 9 vs 10
            - What/why: the change (PRs #100, #101/#102; issue #7 shows the old code). (Also mentioned without a benchmark: dotnet/runtime#200.)
            - *Prose only:* #300 and dotnet/roslyn-analyzers#5, #6 elsewhere.

            **J02 — `Second` (L20)** · 9 vs 10
            - What/why: the same PRs as J01, and PR dotnet/coreclr#40, #41 (@someone). PR #42 is another's `#999`.

            **S03–S04 — two tables (L30)**
            - What/why: one PR for both (dotnet/runtime#50). Related but without a benchmark: #51.

            #### Section prose
            Context, no entry: dotnet/runtime#60.
            """;

        var entries = DigestPrs.ExtractDigest("N10", digest);

        Assert.Equal(new[] { "N10-J01", "N10-J02", "N10-S03", "N10-S04" }, entries.Keys.Order(StringComparer.Ordinal));
        Assert.Equal(new[] { "dotnet/runtime#100", "dotnet/runtime#101", "dotnet/runtime#102" }, entries["N10-J01"].Prs);
        Assert.Equal(new[] { "dotnet/roslyn-analyzers#5", "dotnet/roslyn-analyzers#6", "dotnet/runtime#200", "dotnet/runtime#300" }, entries["N10-J01"].Asides);
        Assert.Equal(new[] { "dotnet/coreclr#40", "dotnet/coreclr#41", "dotnet/runtime#42", "dotnet/runtime#100", "dotnet/runtime#101", "dotnet/runtime#102" }, entries["N10-J02"].Prs);
        Assert.Equal(new[] { "dotnet/runtime#50" }, entries["N10-S04"].Prs);
        Assert.Equal(new[] { "dotnet/runtime#51" }, entries["N10-S03"].Asides);
    }

    private static IEnumerable<string> Listed(PublishedFigures.Figure figure) =>
        (figure.Node["prs"]?.AsArray() ?? []).Select(p => (string)p!);
}
