namespace PerfLab.Notebooks.Documents;

/// <summary>
/// The code cells of a notebook's "## Exercise" sections: a reader's answer is theirs to write, so the course
/// site shows them without running them and the reference job does not measure their unsolved code.
/// </summary>
public static class ExerciseSections
{
    /// <summary>The indexes of the code cells under an "## Exercise..." heading, up to the next "## " heading.</summary>
    /// <param name="document">The notebook.</param>
    public static IReadOnlySet<int> CodeCells(NotebookDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var cells = new HashSet<int>();
        var inExercise = false;
        foreach (var cell in document.Cells)
        {
            // A section can start anywhere in a markdown cell: its last "## " heading is the one the next code cells are under.
            if (cell.Kind == CellKind.Markdown && cell.Source.ReplaceLineEndings("\n").Split('\n').LastOrDefault(l => l.StartsWith("## ", StringComparison.Ordinal)) is { } heading)
            {
                inExercise = heading.StartsWith("## Exercise", StringComparison.OrdinalIgnoreCase);
            }
            else if (cell.Kind == CellKind.Code && inExercise)
            {
                cells.Add(cell.Index);
            }
        }

        return cells;
    }
}
