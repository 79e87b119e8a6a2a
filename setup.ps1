<#
.SYNOPSIS
Sets the course up on this machine and checks it (the twin of setup.sh, for Windows PowerShell and pwsh).

.DESCRIPTION
Restores and builds the helpers, restores the .NET Interactive tool (Polyglot Notebooks' engine,
optional), provisions the .NET 8 and 9 runtimes, installs the course's Jupyter kernel when Jupyter is
here, then runs `perflab doctor`. Safe to run again: whatever is already done is
skipped. The work is done by `perflab setup`; this script only builds the command first.

.PARAMETER From
Install from an offline kit made by `perflab prefetch --out KIT` (no network needed).

.PARAMETER NoKernel
Do not install the course's Jupyter kernel.
#>
[CmdletBinding()]
param(
    [string]$From,
    [switch]$NoKernel
)
$ErrorActionPreference = 'Stop'
Set-Location -LiteralPath $PSScriptRoot

if (-not (Get-Command dotnet -ErrorAction SilentlyContinue)) {
    Write-Host 'setup: the .NET SDK is not on PATH. Install the .NET 10 SDK (https://dotnet.microsoft.com/download), then run ./setup.ps1 again.' -ForegroundColor Red
    exit 1
}
$env:DOTNET_CLI_TELEMETRY_OPTOUT = '1'
$env:DOTNET_NOLOGO = '1'

$buildArgs = @('build', 'helpers/PerfLab.Cli', '-nologo')
$toolArgs = @('tool', 'restore')
$setupArgs = @('helpers/PerfLab.Cli/bin/Debug/net10.0/PerfLab.Cli.dll', 'setup')
if ($From) {
    if (-not (Test-Path -LiteralPath (Join-Path $From 'perflab-kit.json'))) {
        Write-Host "setup: '$From' is not an offline kit (it has no perflab-kit.json). Make one on a connected machine with: dotnet run --project helpers/PerfLab.Cli -- prefetch --out KIT" -ForegroundColor Red
        exit 1
    }
    $kit = (Resolve-Path -LiteralPath $From).Path
    # The kit is the build's only package source: the build asks nothing of the network. The optional tool
    # restore also looks in the kit, and an unreachable source is no error for it.
    $buildArgs += @('--source', (Join-Path $kit 'packages'))
    $toolArgs += @('--add-source', (Join-Path $kit 'packages'), '--ignore-failed-sources')
    $setupArgs += @('--from', $kit)
}
if ($NoKernel) { $setupArgs += '--no-kernel' }

Write-Host '==> Restoring and building the helpers (the first time takes a minute or two)'
& dotnet @buildArgs
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
# The dotnet-interactive tool .config/dotnet-tools.json pins runs the notebooks in .NET Interactive (the
# engine of Polyglot Notebooks). The course does not need it, so a failure is a note, not the end of setup.
Write-Host '==> Restoring the .NET Interactive tool (dotnet tool restore; optional, for Polyglot Notebooks)'
& dotnet @toolArgs
if ($LASTEXITCODE -ne 0) {
    Write-Host "setup: note: ``dotnet $($toolArgs -join ' ')`` failed (above). The course works without it; to run the notebooks in .NET Interactive, run ``dotnet tool restore`` when online." -ForegroundColor Yellow
}
Write-Host '==> perflab setup'
& dotnet @setupArgs
exit $LASTEXITCODE
