#!/usr/bin/env bash
# Printed each time a terminal attaches to the container: where to start and the README's two commands.
cat <<'TEXT'

  PerfLab: a hands-on course on .NET runtime performance

  Start here: open notebooks/00-start-here.ipynb (kernel "C# (PerfLab)").

  Or from this terminal:
    dotnet run --project helpers/PerfLab.Cli -- run notebooks/00-start-here.ipynb --mode quick
    ./test.sh

  If the kernel is missing or a check fails: ./setup.sh

TEXT
