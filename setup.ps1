<#
.SYNOPSIS
Sets the course up on this machine and checks it (the twin of setup.sh, for Windows PowerShell and pwsh).

.DESCRIPTION
Restores and builds the helpers, provisions the .NET 8 and 9 runtimes, installs the course's Jupyter
kernel when Jupyter is here, then runs `perflab doctor`. Safe to run again: whatever is already done is
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
$setupArgs = @('helpers/PerfLab.Cli/bin/Debug/net10.0/PerfLab.Cli.dll', 'setup')
if ($From) {
    if (-not (Test-Path -LiteralPath (Join-Path $From 'perflab-kit.json'))) {
        Write-Host "setup: '$From' is not an offline kit (it has no perflab-kit.json). Make one on a connected machine with: dotnet run --project helpers/PerfLab.Cli -- prefetch --out KIT" -ForegroundColor Red
        exit 1
    }
    $kit = (Resolve-Path -LiteralPath $From).Path
    # The kit is the only package source: nothing is asked of the network.
    $buildArgs += @('--source', (Join-Path $kit 'packages'))
    $setupArgs += @('--from', $kit)
}
if ($NoKernel) { $setupArgs += '--no-kernel' }

Write-Host '==> Restoring and building the helpers (the first time takes a minute or two)'
& dotnet @buildArgs
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
Write-Host '==> perflab setup'
& dotnet @setupArgs
exit $LASTEXITCODE
