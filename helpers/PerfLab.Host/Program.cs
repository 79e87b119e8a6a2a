// PerfLab.Host: runs one BenchmarkDotNet case in-process, on whatever runtime started it.
// Usage: PerfLab.Host REQUEST.json   (a HostRequest; the HostResult goes to request.ResultPath)
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
var (result, exitCode) = CaseRunner.Run(request);
JitTrace.Write(result);
var staging = request.ResultPath + ".tmp";
File.WriteAllText(staging, JsonSerializer.Serialize(result, HostProtocol.Json));
File.Move(staging, request.ResultPath, overwrite: true);
return exitCode;
