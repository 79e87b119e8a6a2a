namespace PerfLab.Tests.Support;

/// <summary>
/// Where the posts' digests are, for the tests that check what the course derived from them (outside the
/// repository: the course's shared/reference, next to it).
/// </summary>
public static class DigestsFolder
{
    /// <summary>The digests folder: PERFLAB_DIGESTS, else shared/reference in a folder above the repository; null when absent.</summary>
    public static string? Find(string repoRoot)
    {
        if (Environment.GetEnvironmentVariable("PERFLAB_DIGESTS") is { Length: > 0 } set)
        {
            return Directory.Exists(set) ? set : throw new DirectoryNotFoundException($"PERFLAB_DIGESTS={set} does not exist.");
        }

        for (var dir = new DirectoryInfo(repoRoot).Parent; dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "shared", "reference");
            if (Directory.Exists(candidate) && Directory.EnumerateFiles(candidate, "post-*-digest.md").Any())
            {
                return candidate;
            }
        }

        return null;
    }
}
