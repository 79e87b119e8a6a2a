namespace PerfLab.Notebooks.Documents;

/// <summary>The notebooks a path names: `perflab run`'s argument and the reference job's --notebooks.</summary>
public static class NotebookFiles
{
    /// <summary>The notebook <paramref name="path"/> names, or every notebook under the folder it names, in path order (checkpoints and hidden folders skipped).</summary>
    /// <param name="path">A .ipynb file or a folder; relative paths start from the current folder.</param>
    /// <returns>The folder the notebooks' names are relative to (the file's own folder, or the folder given), and the notebooks' full paths.</returns>
    /// <exception cref="PerfLabException">The path is not a notebook, does not exist, or holds no notebook.</exception>
    public static (string Root, IReadOnlyList<string> Notebooks) Find(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        var full = Path.GetFullPath(path);
        if (File.Exists(full))
        {
            if (!full.EndsWith(".ipynb", StringComparison.OrdinalIgnoreCase))
            {
                throw new PerfLabException($"{path} is not a notebook (.ipynb).", "Pass a .ipynb file or a folder of notebooks; for a .cs file use `perflab bench`.");
            }

            return (Path.GetDirectoryName(full)!, [full]);
        }

        if (!Directory.Exists(full))
        {
            throw new PerfLabException($"Not found: {path}.", "Pass a notebook or a folder of notebooks; relative paths start from " + Environment.CurrentDirectory + ".");
        }

        var notebooks = Directory.EnumerateFiles(full, "*.ipynb", SearchOption.AllDirectories)
            .Where(f => !Path.GetRelativePath(full, f).Split(Path.DirectorySeparatorChar).Any(part => part.StartsWith('.')))
            .Order(StringComparer.Ordinal)
            .ToArray();
        if (notebooks.Length == 0)
        {
            throw new PerfLabException($"No notebook (.ipynb) under {path}.", "Pass the course's notebooks folder, e.g. `perflab run notebooks`.");
        }

        return (full, notebooks);
    }
}
