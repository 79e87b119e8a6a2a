// One runtime's process for bench/turns/measure.cs. It reads one command a line on stdin and answers one line:
//   settle      call the case in short bursts with pauses until the JIT has had time to reach its final tier
//               (about 1.2 s), then size an iteration at about 25 ms; answers "ready"
//   iteration   time one iteration; answers its nanoseconds per call
// The driver decides who runs when: while this process waits for a line it does nothing.
using System.Diagnostics;
using System.Runtime.CompilerServices;

var caseName = args.Length == 1 ? args[0] : throw new ArgumentException("usage: TurnsWorker CASE (digits-as-interface | array-loop)");
Func<int> call = caseName switch
{
    "digits-as-interface" => Cases.SumDigitsAsInterface,
    "array-loop" => Cases.SumScaledArray,
    _ => throw new ArgumentException($"unknown case '{caseName}'"),
};

long callsPerIteration = 0;
while (Console.ReadLine() is { } command)
{
    switch (command)
    {
        case "settle":
            // Run's loop starts at Tier0 (with on-stack replacement); 60 calls take it past the 30 that promote it,
            // and the pauses let the background compile install its Tier1 code before anything is timed.
            for (var burst = 0; burst < 60; burst++)
            {
                Run(call, 1_000);
                Thread.Sleep(15);
            }

            Thread.Sleep(200);

            callsPerIteration = 1;
            while (Time(call, callsPerIteration) < 25_000_000)
            {
                callsPerIteration *= 2;
            }

            Console.WriteLine("ready");
            break;
        case "iteration":
            Console.WriteLine((Time(call, callsPerIteration) / callsPerIteration).ToString("R", System.Globalization.CultureInfo.InvariantCulture));
            break;
        default:
            Console.WriteLine($"error: unknown command '{command}'");
            return 2;
    }
}

return 0;

static double Time(Func<int> call, long calls)
{
    var started = Stopwatch.GetTimestamp();
    Run(call, calls);
    return Stopwatch.GetElapsedTime(started).TotalNanoseconds;
}

[MethodImpl(MethodImplOptions.NoInlining)]
static void Run(Func<int> call, long calls)
{
    var keep = 0;
    for (long i = 0; i < calls; i++)
    {
        keep += call();
    }

    Cases.Sink = keep;
}

internal static class Cases
{
    public static int Sink;

    private static readonly IEnumerable<int> Digits = new[] { 3, 1, 4, 1, 5, 9, 2, 6, 5 };
    private static readonly int[] Values = Enumerable.Range(7, 256).ToArray();

    // An array seen through IEnumerable<int>: .NET 10 devirtualizes the enumerator (the suite's J20 case).
    public static int SumDigitsAsInterface()
    {
        var total = 0;
        foreach (var digit in Digits)
        {
            total += digit;
        }

        return total;
    }

    // A plain indexed loop: the control, which recent releases changed little.
    public static int SumScaledArray()
    {
        var total = 0;
        var values = Values;
        for (var i = 0; i < values.Length; i++)
        {
            total += values[i] * 3;
        }

        return total;
    }
}
