using PerfLab.Files;
using PerfLab.Processes;

namespace PerfLab.Course.Kit;

/// <summary>
/// The kit's git bundle of the course, which lets a laptop clone the course from the kit:
/// <c>git clone KIT/course.bundle perflab</c>.
/// </summary>
internal static class CourseBundle
{
    /// <summary>Bundles <paramref name="repo"/>'s HEAD (and its branch) into <paramref name="kitRoot"/>; without git or a clone, says so and makes none.</summary>
    /// <param name="repo">The course's repository.</param>
    /// <param name="kitRoot">The kit's folder.</param>
    /// <param name="log">Receives what was bundled, or why nothing was.</param>
    /// <param name="cancellationToken">Stops git.</param>
    /// <returns>The bundled commit, or null when there is no bundle.</returns>
    public static async Task<string?> CreateAsync(string repo, string kitRoot, Action<string> log, CancellationToken cancellationToken)
    {
        var bundle = Path.Combine(kitRoot, OfflineKit.CourseBundleFileName);
        try
        {
            var head = await ChildProcess.RunAsync("git", ["rev-parse", "HEAD"], null, repo, TimeSpan.FromMinutes(1), null, cancellationToken).ConfigureAwait(false);
            if (head.ExitCode != 0)
            {
                log($"no {OfflineKit.CourseBundleFileName}: {repo} is not a git clone (copy the course folder itself to the laptops)");
                return null;
            }

            // With the branch as well as HEAD, a clone of the bundle checks that branch out (not a detached HEAD).
            var branch = await ChildProcess.RunAsync("git", ["symbolic-ref", "--short", "-q", "HEAD"], null, repo, TimeSpan.FromMinutes(1), null, cancellationToken).ConfigureAwait(false);
            var error = "";
            var created = await AtomicFile.TryWriteAsync(bundle, async staging =>
            {
                List<string> arguments = ["bundle", "create", staging, "HEAD"];
                if (branch.ExitCode == 0 && !string.IsNullOrWhiteSpace(branch.StandardOutput))
                {
                    arguments.Add(branch.StandardOutput.Trim());
                }

                var result = await ChildProcess.RunAsync("git", arguments, null, repo, TimeSpan.FromMinutes(5), null, cancellationToken).ConfigureAwait(false);
                error = result.StandardError.Trim();
                return result.ExitCode == 0;
            }).ConfigureAwait(false);
            if (!created)
            {
                log($"no {OfflineKit.CourseBundleFileName}: git bundle failed ({error})");
                return null;
            }

            var commit = head.StandardOutput.Trim();
            log($"{OfflineKit.CourseBundleFileName}: the course at {commit[..Math.Min(12, commit.Length)]}");
            return commit;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            log($"no {OfflineKit.CourseBundleFileName}: git is not on PATH (copy the course folder itself to the laptops)");
            return null;
        }
    }
}
