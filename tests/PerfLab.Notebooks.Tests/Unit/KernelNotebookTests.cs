using PerfLab.Kernel;

namespace PerfLab.Notebooks.Tests.Unit;

/// <summary>Which notebook the course kernel's cell belongs to: what VS Code's cell URI or Jupyter Server's session names, never a guess.</summary>
public class KernelNotebookTests
{
    [Theory]
    [InlineData("vscode-notebook-cell:/home/ana/perflab/notebooks/jit/01-tiering-and-pgo.ipynb#W1sZmlsZQ%3D%3D", null, "/home/ana/perflab/notebooks/jit/01-tiering-and-pgo.ipynb")]
    [InlineData("vscode-notebook-cell:/home/ana/my%20course/notebooks/00-start-here.ipynb#W2sZmlsZQ%3D%3D", "/srv/other.ipynb", "/home/ana/my course/notebooks/00-start-here.ipynb")]
    [InlineData("vscode-notebook-cell:/c%3A/course/notebooks/00-start-here.ipynb#W1sZmlsZQ%3D%3D", null, "c:/course/notebooks/00-start-here.ipynb")]
    [InlineData("5f0c2d7e-8a5b-4c1e-9f3a-0b1d2c3e4f50", "/home/ana/perflab/notebooks/00-start-here.ipynb", "/home/ana/perflab/notebooks/00-start-here.ipynb")]
    [InlineData(null, "/home/ana/perflab/notebooks/00-start-here.ipynb", "/home/ana/perflab/notebooks/00-start-here.ipynb")]
    [InlineData("vscode-interactive-input:/InteractiveInput-1", null, null)]
    [InlineData(null, "a3b1c2d4-session", null)]
    [InlineData(null, null, null)]
    public void The_notebook_is_the_vs_code_cells_else_the_sessions_else_none(string? cellId, string? session, string? expected)
    {
        Assert.Equal(expected, KernelNotebook.Of(cellId, session));
    }
}
