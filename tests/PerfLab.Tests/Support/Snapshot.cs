using System.Runtime.CompilerServices;

namespace PerfLab.Tests.Support;

/// <summary>
/// Compares what users see with a reviewed file in tests/PerfLab.Tests/Snapshots. On a difference it
/// writes NAME.received.txt beside it and fails; accept a change by renaming that file (or by running
/// the tests with PERFLAB_UPDATE_SNAPSHOTS=1), so every change to output is a reviewed diff.
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
        var firstDifference = expected is null ? 0 : Enumerable.Range(0, Math.Min(expected.Length, actual.Length)).FirstOrDefault(i => expected[i] != actual[i]);
        Assert.Fail(expected is null
            ? $"No snapshot {expectedPath} yet. Review {receivedPath} and rename it to {name}.txt."
            : $"Output differs from snapshot {name}.txt at character {firstDifference} (line {expected[..firstDifference].Count(c => c == '\n') + 1}). Review {receivedPath}; rename it to {name}.txt if the change is intended.");
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
