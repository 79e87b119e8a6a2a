namespace PerfLab.Tests.Support;

/// <summary>Files of the repository the tests run in (the folder holding PerfLab.slnx).</summary>
public static class RepoFiles
{
    private static readonly Lazy<string> Root = new(() =>
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(dir.FullName, "PerfLab.slnx")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("The tests run from inside the repository.");
    });

    /// <summary>A path below the repository root, from its parts.</summary>
    public static string Path(params string[] parts) => System.IO.Path.Combine([Root.Value, .. parts]);
}
