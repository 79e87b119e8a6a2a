namespace PerfLab.Processes;

/// <summary>Finds programs on PATH, as a shell would (with Windows' executable extensions).</summary>
public static class ExecutableSearch
{
    /// <summary>Every file on PATH that starts <paramref name="program"/>, in PATH order.</summary>
    /// <param name="program">The program's name without extension, e.g. dotnet or jupyter.</param>
    public static IEnumerable<string> All(string program)
    {
        var names = OperatingSystem.IsWindows() ? new[] { program + ".exe", program + ".cmd", program + ".bat" } : [program];
        foreach (var folder in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            foreach (var name in names)
            {
                var candidate = Path.Combine(folder, name);
                if (File.Exists(candidate))
                {
                    yield return candidate;
                }
            }
        }
    }

    /// <summary>The first file on PATH that starts <paramref name="program"/>, or null.</summary>
    /// <param name="program">The program's name without extension.</param>
    public static string? Find(string program) => All(program).FirstOrDefault();
}
