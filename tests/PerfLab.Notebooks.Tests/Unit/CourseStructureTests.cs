using PerfLab.Notebooks.Documents;
using PerfLab.Notebooks.Tests.Support;
using PerfLab.Results;
using static PerfLab.Notebooks.Tests.Support.TestNotebooks;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>
/// Every course notebook keeps the course's skeleton (<see cref="CourseStructure"/>): the losses rewrites caused
/// before (jit/05's exercise, collections/01's N10-C01 section and its figure rows) each fail one of these tests.
/// </summary>
public class CourseStructureTests
{
    private static readonly Lazy<PublishedFigures.Catalog> Figures = new(() =>
        PublishedFigures.Load(Path.Combine(Repo.Root, "data", "published"), Path.Combine(Repo.Root, "data", "outline.json")));

    private static IEnumerable<(NotebookDocument Notebook, string Name, string Topic)> Course() =>
        Integration.RunCommandTests.CourseNotebooks().Select(path =>
        {
            var name = Path.GetRelativePath(Repo.Root, path).Replace('\\', '/');
            var folder = Path.GetFileName(Path.GetDirectoryName(path)!);
            return (NotebookDocument.Load(path), name, folder == "notebooks" ? "" : folder);
        });

    private static void AssertNone(IEnumerable<string> problems, string what)
    {
        var list = problems.ToList();
        Assert.True(list.Count == 0, $"{list.Count} {what}:\n" + string.Join("\n", list));
    }

    [Fact]
    public void Every_notebook_has_its_exercise_section() =>
        AssertNone(Course().SelectMany(n => CourseStructure.ExerciseSection(n.Notebook, n.Name)), "notebook(s) without a whole exercise section");

    [Fact]
    public void Every_you_will_learn_item_is_taught_under_a_heading() =>
        AssertNone(Course().SelectMany(n => CourseStructure.LearnedItems(n.Notebook, n.Name, n.Topic)), "promise(s) no section keeps");

    [Fact]
    public void Every_figure_a_cell_measures_is_introduced_in_the_prose_before_it() =>
        AssertNone(Course().SelectMany(n => CourseStructure.FiguresIntroduced(n.Notebook, n.Name)), "figure(s) measured before the prose introduces them");

    [Fact]
    public void Every_figure_category_matches_a_row_of_the_posts_tables()
    {
        Assert.Empty(Figures.Value.Problems);
        AssertNone(Course().SelectMany(n => CourseStructure.FigureRowsMatched(n.Notebook, n.Name, Figures.Value)), "benchmark(s) naming a figure none of whose rows they match");
    }

    [Fact]
    public void No_cell_needs_a_variable_from_a_cell_other_than_the_one_before_it() =>
        AssertNone(Course().SelectMany(n => CourseStructure.HiddenState(n.Notebook, n.Name)), "cell(s) that fail after a kernel restart");

    [Fact]
    public void Every_notes_block_stays_in_the_section_it_annotates() =>
        AssertNone(Course().SelectMany(n => CourseStructure.NotesPlacement(n.Notebook, n.Name)), "notes block(s) under the wrong section");

    [Fact]
    public void No_notebook_holds_more_than_its_limit_of_teaching_prose() =>
        AssertNone(Course().SelectMany(n => CourseStructure.TeachingProse(n.Notebook, n.Name)), "notebook(s) with too much teaching prose");

    [Fact]
    public void Teaching_prose_over_the_limit_is_reported_and_the_same_text_in_notes_tables_and_code_is_not()
    {
        var long_ = new string('a', CourseStructure.TeachingProseLimit);
        var over = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText), Markdown(long_));
        var folded = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText),
            Markdown("<details>\n<summary>Measurement notes</summary>\n\n" + long_ + "\n\n</details>"),
            Markdown("| " + long_ + " |"),
            Markdown("```\n" + long_ + "\n```"));

        var problem = Assert.Single(CourseStructure.TeachingProse(over, "jit/05"));

        Assert.StartsWith("jit/05: 16,", problem, StringComparison.Ordinal);
        Assert.Empty(CourseStructure.TeachingProse(folded, "jit/05"));
    }

    [Fact]
    public void A_notes_block_after_the_next_sections_prompt_is_reported_and_one_before_its_heading_is_not()
    {
        const string notes = "<details>\n<summary>Measurement notes</summary>\n\nNoisy.\n\n</details>";
        var misplaced = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText),
            Markdown("Results of the first section.\n\n## Second section\n\nText.\n\n> Before you run it: guess.\n\n" + notes));
        var placed = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText),
            Markdown("Results of the first section.\n\n" + notes + "\n\n## Second section\n\nText.\n\n> Before you run it: guess."));

        var problem = Assert.Single(CourseStructure.NotesPlacement(misplaced, "collections/03"));

        Assert.Contains("move it before the section's heading \"## Second section\"", problem, StringComparison.Ordinal);
        Assert.Empty(CourseStructure.NotesPlacement(placed, "collections/03"));
    }

    [Fact]
    public void A_notebook_that_lost_its_exercise_heading_is_reported_and_one_with_it_is_not()
    {
        var lost = Notebook(Metadata(), Markdown(Intro("- and, as an exercise, how to count.")), Code(SetupText), Markdown("## Count\n\nText."), Code("public class Tally { }"));
        var kept = Notebook(Metadata(), Markdown(Intro("- and, as an exercise, how to count.")), Code(SetupText), Markdown("## Exercise: count faster\n\n" + new string('x', 100)), Code("public class Tally { }"));

        var problems = CourseStructure.ExerciseSection(lost, "jit/05").Concat(CourseStructure.LearnedItems(lost, "jit/05", "jit")).ToList();

        Assert.Equal(2, problems.Count);
        Assert.Contains("jit/05 has no \"## Exercise\" section", problems[0], StringComparison.Ordinal);
        Assert.Contains("promises an exercise", problems[1], StringComparison.Ordinal);
        Assert.Empty(CourseStructure.ExerciseSection(kept, "jit/05").Concat(CourseStructure.LearnedItems(kept, "jit/05", "jit")));
    }

    [Fact]
    public void A_promise_whose_section_went_is_reported_though_its_words_stay_in_other_prose()
    {
        // collections/01 before the fix: the sizes section was gone, OSR was still mentioned in the next section's prose,
        // and "collection" (the topic) was in another heading.
        var intro = Intro("- why the size of the collection used to matter (OSR and PGO);\n- why `IsEmpty` is the question to ask.");
        var lost = Notebook(Metadata(), Markdown(intro), Code(SetupText),
            Markdown("## Ask a concurrent collection the cheap question\n\nOSR code runs before Tier1 at 15,000 items; `IsEmpty`..."));
        var kept = Notebook(Metadata(), Markdown(intro), Code(SetupText),
            Markdown("## Check that it holds at every size (N10-C01)\n\nText."), Markdown("## Ask a concurrent collection the cheap question\n\nText."));

        var problem = Assert.Single(CourseStructure.LearnedItems(lost, "collections/01", "collections"));

        Assert.Contains("promises \"why the size of the collection used to matter (OSR and PGO);\"", problem, StringComparison.Ordinal);
        Assert.Empty(CourseStructure.LearnedItems(kept, "collections/01", "collections"));
    }

    [Fact]
    public void A_figure_no_prose_before_its_cell_names_is_reported_and_a_range_or_a_list_introduces_it()
    {
        const string cell = "[BenchmarkCategory(\"N10-C01\")]\npublic class SensorLog { [Benchmark] public int Sum() => 0; }";
        var lost = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText), Markdown("## Untangle a state machine (N10-C04)\n\nText."), Code(cell));
        var ranged = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText), Markdown("## Enumerators (N10-C01..C04)\n\nText."), Code(cell));
        var listed = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText), Markdown("## Enumerators (N10-C04, C01)\n\nText."), Code(cell));

        var problem = Assert.Single(CourseStructure.FiguresIntroduced(lost, "collections/01"));

        Assert.Contains("collections/01 cell 4 measures N10-C01", problem, StringComparison.Ordinal);
        Assert.Empty(CourseStructure.FiguresIntroduced(ranged, "collections/01"));
        Assert.Empty(CourseStructure.FiguresIntroduced(listed, "collections/01"));
    }

    [Fact]
    public void A_class_category_whose_figure_has_other_method_names_is_reported_and_named_rows_are_not()
    {
        // N10-C02's rows are SumDirect and SumEnumerable: a class-level category matches neither WalkStack nor WalkStackAsSequence.
        var classLevel = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText), Code(
            "[BenchmarkCategory(\"N10-C02\")]\npublic class UndoHistory\n{\n    [Benchmark] public int WalkStack() => 0;\n    [Benchmark] public int WalkStackAsSequence() => 0;\n}"));
        var named = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText), Code(
            "public class UndoHistory\n{\n    [Benchmark, BenchmarkCategory(\"N10-C02:SumDirect\")] public int WalkStack() => 0;\n    [Benchmark]\n    [BenchmarkCategory(\"N10-C02:SumEnumerable\")] public int WalkStackAsSequence() => 0;\n}"));
        // N10-C01's rows carry Count = 500, 5000, 15000: a parameter of another name matches none of them.
        var otherParameter = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText), Code(
            "[BenchmarkCategory(\"N10-C01\")]\npublic class SensorLog\n{\n    [Params(500, 5_000)] public int Readings { get; set; }\n    [Benchmark] public int Sum() => 0;\n}"));

        var problems = CourseStructure.FigureRowsMatched(classLevel, "collections/01", Figures.Value).ToList();
        var parameterProblems = CourseStructure.FigureRowsMatched(otherParameter, "collections/01", Figures.Value).ToList();

        Assert.Equal(2, problems.Count);
        Assert.Contains("UndoHistory.WalkStack names N10-C02, and no row of the post's tables matches it", problems[0], StringComparison.Ordinal);
        Assert.Empty(CourseStructure.FigureRowsMatched(named, "collections/01", Figures.Value));
        Assert.Equal(2, parameterProblems.Count);
        Assert.Contains("SensorLog.Sum(Readings=5000) names N10-C01", parameterProblems[1], StringComparison.Ordinal);
    }

    [Fact]
    public void A_variable_from_a_far_earlier_cell_is_reported_and_one_from_the_cell_before_is_not()
    {
        // jit/07 before the fix: noAvx512, declared with the instruction sets, used by listings cells further down.
        var notebook = Notebook(Metadata(), Markdown(Intro("- a")), Code(SetupText),
            Code("string[] noAvx512 = [\"DOTNET_EnableAVX512F=0\"];\nawait Lab.InstructionSetsAsync(env: noAvx512)"),
            Markdown("## Multiply\n\nText."),
            Code("await Lab.AsmAsync<LaneMath>()"),
            Code("var products = await Lab.RunAsync<LongProducts>(env: noAvx512);"),
            Code("Lab.Show(products)"));

        var problem = Assert.Single(CourseStructure.HiddenState(notebook, "jit/07"));

        Assert.Contains("jit/07 cell 6 uses `noAvx512`, declared in cell 3", problem, StringComparison.Ordinal);
    }

    private static string Intro(string items) => $"# Demo\n\nText.\n\n**You will learn**\n{items}\n\nPrevious: x";
}
