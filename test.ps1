# The course's test command on Windows.
#   .\test.ps1 -Fast    the fast lane: the tests in .Unit namespaces (no runtime process, browser or Jupyter),
#                       which need only the .NET SDK and run here
#   .\test.ps1          every test: they drive Debian's headless Chromium and Jupyter clients
#                       (/usr/bin/chromium, /usr/bin/python3 with nbclient), which Windows does not have, so
#                       this says where to run them instead of failing deep inside a test
param([switch]$Fast)
$ErrorActionPreference = 'Stop'
Set-Location $PSScriptRoot
if ($Fast) {
    # The lanes are namespaces, checked by TestLaneTests (FastLaneFilter).
    # Built without the analyzers (as every build but the full suite's: Directory.Build.props), a third of a clean build.
    & dotnet test PerfLab.slnx --filter "FullyQualifiedName~.Unit." @args
    exit $LASTEXITCODE
}
Write-Host @"
test.ps1: the whole suite needs Linux (Debian or Ubuntu): it opens reports in Debian's Chromium and runs the
notebooks through Jupyter's own Python clients at /usr/bin/python3. On Windows, run it in one of:
  - WSL (Ubuntu):     wsl ./test.sh          (installs chromium, python3-nbclient, ... with apt-get)
  - the dev container: VS Code 'Dev Containers: Reopen in Container', then ./test.sh in its terminal
The fast lane runs here: .\test.ps1 -Fast. The course itself (.\setup.ps1, notebooks, perflab run) works on
Windows without them.
"@
exit 2
