using System.Buffers;
using PerfLab.Inputs;

public class Alarms
{
    // 200,000 chars of prose with three alarms in it.
    private readonly string _log = Corpus.Plant(Corpus.Prose(200_000, seed: 404),
        (12_000, " ERROR: "), (97_000, " failed "), (161_000, " Fatal "));

    // Built once: Create looks at the three words and picks the search algorithm for them.
    private static readonly SearchValues<string> AlarmWords = SearchValues.Create(["error", "fail", "fatal"], StringComparison.OrdinalIgnoreCase);

    [Benchmark]
    public int Count() => CountAlarms(_log);

    // One search over the whole log finds the next alarm word, in any case; the line it is on counts once, so
    // the next search starts after that line's end. A word holds no line break, so a hit never spans two lines.
    // (A search per line, foreach (var line in log.AsSpan().EnumerateLines()) if (line.ContainsAny(AlarmWords)),
    // is right too; it restarts the search at every line, so it is slower on a log where alarms are rare.)
    public static int CountAlarms(string log)
    {
        ReadOnlySpan<char> rest = log;
        int alarms = 0;
        int hit;
        while ((hit = rest.IndexOfAny(AlarmWords)) >= 0)
        {
            alarms++;
            int lineEnd = rest.Slice(hit).IndexOfAny('\r', '\n');
            if (lineEnd < 0)
            {
                break;
            }

            rest = rest.Slice(hit + lineEnd + 1);
        }

        return alarms;
    }
}
