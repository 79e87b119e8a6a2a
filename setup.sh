#!/usr/bin/env bash
# Sets the course up on this machine and checks it: restores and builds the helpers, provisions the
# .NET 8 and 9 runtimes, installs the course's Jupyter kernel when Jupyter is here, then runs
# `perflab doctor`. Safe to run again: whatever is already done is skipped.
# Offline (a workshop room): ./setup.sh --from KIT, where KIT was made by `perflab prefetch --out KIT`.
# The work is done by `perflab setup`; this script only builds the command first. setup.ps1 is its twin.
set -euo pipefail

usage() {
  cat <<'TEXT'
Usage: ./setup.sh [--from KIT] [--no-kernel]
  --from KIT    install from an offline kit made by `perflab prefetch --out KIT` (no network needed)
  --no-kernel   do not install the course's Jupyter kernel
TEXT
}

kit=""
kernel=1
while [ $# -gt 0 ]; do
  case "$1" in
    --from)
      if [ $# -lt 2 ]; then echo "setup: --from needs the kit's folder." >&2; usage >&2; exit 2; fi
      kit="$2"; shift 2 ;;
    --no-kernel) kernel=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "setup: unknown option '$1'." >&2; usage >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")"
if ! command -v dotnet >/dev/null 2>&1; then
  echo "setup: the .NET SDK is not on PATH. Install the .NET 10 SDK (https://dotnet.microsoft.com/download), then run ./setup.sh again." >&2
  exit 1
fi
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

build_args=(build helpers/PerfLab.Cli -nologo)
setup_args=(helpers/PerfLab.Cli/bin/Debug/net10.0/PerfLab.Cli.dll setup)
if [ -n "$kit" ]; then
  if [ ! -f "$kit/perflab-kit.json" ]; then
    echo "setup: '$kit' is not an offline kit (it has no perflab-kit.json). Make one on a connected machine with: dotnet run --project helpers/PerfLab.Cli -- prefetch --out KIT" >&2
    exit 1
  fi
  kit="$(cd "$kit" && pwd)"
  # The kit is the only package source: nothing is asked of the network.
  build_args+=(--source "$kit/packages")
  setup_args+=(--from "$kit")
fi
if [ "$kernel" = 0 ]; then setup_args+=(--no-kernel); fi

echo "==> Restoring and building the helpers (the first time takes a minute or two)"
dotnet "${build_args[@]}"
echo "==> perflab setup"
exec dotnet "${setup_args[@]}"
