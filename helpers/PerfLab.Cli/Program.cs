using System.Text;
using PerfLab.Cli;

Console.OutputEncoding = Encoding.UTF8;
return await PerfLabCommand.Create(Console.Out, Console.Error).Parse(args).InvokeAsync(PerfLabCommand.Invocation()).ConfigureAwait(false);
