// PerfLab.Host: runs BenchmarkDotNet cases in-process (one, or every case from one on), on whatever runtime started it.
// Usage: PerfLab.Host REQUEST.json   (a HostRequest; the HostResults, one per case run, go to request.ResultPath)
using System.Text.Json;
using PerfLab.Contract;
using PerfLab.Host;

if (args.Length != 1 || !File.Exists(args[0]))
{
    Console.Error.WriteLine("usage: PerfLab.Host REQUEST.json (this program is started by perflab, not by hand)");
    return HostProtocol.BadRequestExitCode;
}

var request = JsonSerializer.Deserialize<HostRequest>(File.ReadAllText(args[0]), HostProtocol.Json)
    ?? throw new InvalidDataException("empty request");
JitTrace.StartIfAsked();
IReadOnlyList<HostResult> results = [];
var exitCode = CaseRunner.Run(request, soFar =>
{
    // Written whole and moved into place after each case: a process that dies later keeps the cases it finished.
    results = [.. soFar];
    var staging = request.ResultPath + ".tmp";
    File.WriteAllText(staging, JsonSerializer.Serialize(results, HostProtocol.Json));
    File.Move(staging, request.ResultPath, overwrite: true);
});
if (results.Count > 0)
{
    JitTrace.Write(results[^1]);
}

return exitCode;
