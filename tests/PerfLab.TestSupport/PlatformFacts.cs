using System.Runtime.InteropServices;

namespace PerfLab.Tests.Support;

/// <summary>
/// Facts and theories bound to a platform: elsewhere xunit reports them skipped, with the reason, instead of running
/// them (a test that returned early off its platform would pass, and say nothing). xunit 2 has no skip from inside a
/// test, so the attribute decides, from the process it runs in.
/// </summary>
internal static class Platform
{
    public static string? SkipUnlessLinux(string reason) => OperatingSystem.IsLinux() ? null : $"Linux only, this is {RuntimeInformation.OSDescription}: {reason}";

    public static string? SkipOnWindows(string reason) => OperatingSystem.IsWindows() ? $"not on Windows: {reason}" : null;

    public static string? SkipUnlessX64(string reason) =>
        RuntimeInformation.ProcessArchitecture == Architecture.X64 ? null : $"x64 only, this is {RuntimeInformation.ProcessArchitecture}: {reason}";
}

/// <summary>A fact that needs Linux (its /proc, network namespaces); skipped, with the reason, on any other OS.</summary>
public sealed class LinuxFactAttribute : FactAttribute
{
    public LinuxFactAttribute(string reason) => Skip = Platform.SkipUnlessLinux(reason);
}

/// <summary>A fact that needs a Unix shell (Linux or macOS: bash, the .sh scripts); skipped, with the reason, on Windows.</summary>
public sealed class UnixFactAttribute : FactAttribute
{
    public UnixFactAttribute(string reason) => Skip = Platform.SkipOnWindows(reason);
}

/// <summary>A fact about x64 machine code (exact code sizes, x64 instructions); skipped, with the reason, on other architectures.</summary>
public sealed class X64FactAttribute : FactAttribute
{
    public X64FactAttribute(string reason) => Skip = Platform.SkipUnlessX64(reason);
}

/// <summary>A theory about x64 machine code (exact code sizes, x64 instructions); skipped, with the reason, on other architectures.</summary>
public sealed class X64TheoryAttribute : TheoryAttribute
{
    public X64TheoryAttribute(string reason) => Skip = Platform.SkipUnlessX64(reason);
}
