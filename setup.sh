#!/usr/bin/env bash
# Sets the course up on this machine and checks it: restores and builds the helpers, restores the
# .NET Interactive tool (Polyglot Notebooks' engine, optional), provisions the .NET 8 and 9 runtimes,
# installs the course's Jupyter kernel when Jupyter is here, then runs `perflab doctor`. Safe to run
# again: whatever is already done is skipped.
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
tool_args=(tool restore)
setup_args=(helpers/PerfLab.Cli/bin/Debug/net10.0/PerfLab.Cli.dll setup)
if [ -n "$kit" ]; then
  if [ ! -f "$kit/perflab-kit.json" ]; then
    echo "setup: '$kit' is not an offline kit (it has no perflab-kit.json). Make one on a connected machine with: dotnet run --project helpers/PerfLab.Cli -- prefetch --out KIT" >&2
    exit 1
  fi
  kit="$(cd "$kit" && pwd)"
  # The kit is the build's only package source: the build asks nothing of the network. The optional tool
  # restore also looks in the kit, and an unreachable source is no error for it.
  build_args+=(--source "$kit/packages")
  tool_args+=(--add-source "$kit/packages" --ignore-failed-sources)
  setup_args+=(--from "$kit")
fi
if [ "$kernel" = 0 ]; then setup_args+=(--no-kernel); fi

echo "==> Restoring and building the helpers (the first time takes a minute or two)"
dotnet "${build_args[@]}"
# The dotnet-interactive tool .config/dotnet-tools.json pins runs the notebooks in .NET Interactive (the
# engine of Polyglot Notebooks). The course does not need it, so a failure is a note, not the end of setup.
echo "==> Restoring the .NET Interactive tool (dotnet tool restore; optional, for Polyglot Notebooks)"
if ! dotnet "${tool_args[@]}"; then
  echo "setup: note: \`dotnet ${tool_args[*]}\` failed (above). The course works without it; to run the notebooks in .NET Interactive, run \`dotnet tool restore\` when online." >&2
fi
echo "==> perflab setup"
exec dotnet "${setup_args[@]}"
