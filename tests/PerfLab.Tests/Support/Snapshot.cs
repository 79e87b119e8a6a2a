using System.Runtime.CompilerServices;

namespace PerfLab.Tests.Support;

/// <summary>
/// Compares what users see with a reviewed file in tests/PerfLab.Tests/Snapshots. On a difference it
/// writes NAME.received.txt beside it and fails, listing the changed lines; accept a change by renaming that
/// file (or by running the tests with PERFLAB_UPDATE_SNAPSHOTS=1), so every change to output is a reviewed diff.
/// </summary>
public static class Snapshot
{
    public static void Match(string name, string actual, [CallerFilePath] string caller = "")
    {
        var folder = Path.Combine(FindTestsFolder(caller), "Snapshots");
        var expectedPath = Path.Combine(folder, name + ".txt");
        var receivedPath = Path.Combine(folder, name + ".received.txt");
        actual = actual.ReplaceLineEndings("\n");

        if (Environment.GetEnvironmentVariable("PERFLAB_UPDATE_SNAPSHOTS") == "1")
        {
            File.WriteAllText(expectedPath, actual);
            File.Delete(receivedPath);
            return;
        }

        var expected = File.Exists(expectedPath) ? File.ReadAllText(expectedPath).ReplaceLineEndings("\n") : null;
        if (expected == actual)
        {
            File.Delete(receivedPath);
            return;
        }

        File.WriteAllText(receivedPath, actual);
        var accept = $"rename it to {name}.txt (or run the tests with PERFLAB_UPDATE_SNAPSHOTS=1) if the change is intended";
        Assert.Fail(expected is null
            ? $"No snapshot {expectedPath} yet. Review {receivedPath} and {accept}."
            : $"Output differs from snapshot {name}.txt:\n{Changes(expected, actual)}\nReview {receivedPath}; {accept}.");
    }

    // The changed lines, "-" the snapshot's and "+" the output's, each with its line number: what changed, without opening a file.
    private static string Changes(string expected, string actual)
    {
        const int Shown = 40;
        var changed = new List<string>();
        int left = 0, right = 0;
        foreach (var row in LineDiff.Align(expected.Split('\n'), actual.Split('\n')))
        {
            left += row.Left is null ? 0 : 1;
            right += row.Right is null ? 0 : 1;
            if (row.Changed)
            {
                changed.Add(row.Left is { } removed ? $"  - {left,5}: {removed}" : $"  + {right,5}: {row.Right}");
            }
        }

        return string.Join("\n", changed.Take(Shown)) + (changed.Count > Shown ? $"\n  ... and {changed.Count - Shown} more changed lines" : "");
    }

    private static string FindTestsFolder(string caller)
    {
        for (var dir = new DirectoryInfo(Path.GetDirectoryName(caller)!); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "PerfLab.Tests.csproj")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("Snapshots live next to PerfLab.Tests.csproj; run the tests from the source tree.");
    }
}
