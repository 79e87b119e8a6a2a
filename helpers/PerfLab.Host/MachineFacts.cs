using System.Reflection;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Environments;
using Perfolizer.Models;

namespace PerfLab.Host;

/// <summary>
/// BenchmarkDotNet's description of the machine, made without starting processes. Its own description, which every
/// summary builds after the measured iterations, starts <c>cat /proc/cpuinfo</c>, <c>bash -c lscpu</c> and
/// <c>dotnet --version</c>: about a third of a second of each launch's wall time on 2 cores, for text no PerfLab result
/// reads (PerfLab describes the machine itself, once per run). Here the processor comes from reading /proc/cpuinfo,
/// and the SDK version is left empty: a host runs a case in-process on a runtime, and no SDK takes part.
/// </summary>
internal sealed class MachineFacts : HostEnvironmentInfo
{
    private MachineFacts()
    {
        DotNetSdkVersion = new Lazy<string>(() => string.Empty);
        Cpu = new Lazy<CpuInfo>(ReadProcessor);
    }

    /// <summary>
    /// Makes this description the one BenchmarkDotNet's summaries use (its cached instance, a private field set once);
    /// false when this BenchmarkDotNet has no such field, and its own description, with its processes, stays.
    /// </summary>
    public static bool Install()
    {
        var cached = typeof(HostEnvironmentInfo).GetField("current", BindingFlags.NonPublic | BindingFlags.Static);
        if (cached is null || cached.FieldType != typeof(HostEnvironmentInfo))
        {
            return false;
        }

        cached.SetValue(null, new MachineFacts());
        return true;
    }

    // The processor's name and logical cores from /proc/cpuinfo where it exists (Linux); elsewhere what the runtime knows.
    private static CpuInfo ReadProcessor()
    {
        var info = new CpuInfo
        {
            LogicalCoreCount = Environment.ProcessorCount,
            Architecture = RuntimeInformation.ProcessArchitecture.ToString(),
        };
        try
        {
            var modelName = File.ReadLines("/proc/cpuinfo")
                .Select(line => line.Split(':', 2))
                .Where(parts => parts.Length == 2 && parts[0].Trim() == "model name")
                .Select(parts => parts[1].Trim())
                .FirstOrDefault();
            info.ProcessorName = modelName ?? CpuInfo.Unknown.ProcessorName;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            info.ProcessorName = CpuInfo.Unknown.ProcessorName;
        }

        return info;
    }
}
