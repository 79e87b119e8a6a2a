using System.Text;
using PerfLab.Contract;
using PerfLab.Runtimes;

namespace PerfLab.Notebooks;

/// <summary>A runtime the course measures and how this machine has it.</summary>
/// <param name="Moniker">net8.0, net9.0, net10.0.</param>
/// <param name="Version">The pinned patch version.</param>
/// <param name="Source">Installed, provisioned, or provisioned on first use.</param>
public sealed record LabRuntime(string Moniker, string Version, RuntimeSource Source);

/// <summary>What the setup cell shows: helpers, kernel, mode and runtimes.</summary>
/// <param name="HelpersVersion">The helpers' assembly version.</param>
/// <param name="Kernel">Which kernel runs the notebook.</param>
/// <param name="Mode">The benchmark mode in effect.</param>
/// <param name="ModeSource">Where the mode came from: --mode, PERFLAB_MODE or default.</param>
/// <param name="Runtimes">The runtimes and their state.</param>
public sealed record LabInfo(string HelpersVersion, string Kernel, BenchmarkMode Mode, string ModeSource, IReadOnlyList<LabRuntime> Runtimes)
{
    /// <summary>Lines of text.</summary>
    public override string ToString()
    {
        var text = new StringBuilder();
        text.AppendLine($"PerfLab helpers {HelpersVersion} in the {Kernel}.");
        text.AppendLine(new ModeChoice(Mode, ModeSource).Line);
        foreach (var runtime in Runtimes)
        {
            text.AppendLine($"  {runtime.Moniker,-8} {runtime.Version,-8} {runtime.Source.Describe()}");
        }

        return text.ToString();
    }

    /// <summary>The same as a small HTML block (<see cref="Views.LabInfoHtml"/>).</summary>
    public string ToHtml() => Views.LabInfoHtml.Render(this);
}
