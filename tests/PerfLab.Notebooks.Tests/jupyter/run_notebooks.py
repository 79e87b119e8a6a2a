"""Executes notebooks with nbclient on a Jupyter kernel (the course's perflab-csharp unless --kernel says
another, e.g. .NET Interactive's) and reports their error outputs as JSON.

Usage: run_notebooks.py [--kernel NAME] [--after REPORTS --root FOLDER] NOTEBOOK...
       (JUPYTER_DATA_DIR, PERFLAB_HOME and PERFLAB_MODE come from the environment)
--after follows a `perflab run --out REPORTS` of the same notebooks (FOLDER is the one it was given): each notebook
starts once that run has written its report (so its cells are answered from the caches the run filled), or once
REPORTS holds the file FINISHED (the run ended, with or without that report). Following, the script and its
kernels run at low priority: they take the CPU the run leaves and do not slow it down.
Prints one JSON object on stdout: {"kernel", "notebooks": [{"path", "seconds", "cells", "problems": [{"cell", "kind", "text"}]}]}.
A notebook that nbclient could not run at all (dead kernel, timeout) reports that as a problem of kind "nbclient".
Each kernel starts in its notebook's folder, with its stdout sent to this script's stderr: stdout carries
only the JSON (.NET Interactive prints ASP.NET's "Now listening on" lines there).
"""
import argparse
import json
import os
import sys
import time
import traceback

FINISHED = "perflab-run-finished"

import nbformat
from nbclient import NotebookClient


def problems_of(nb):
    found = []
    for number, cell in enumerate(nb.cells, start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                evalue = output.get("evalue", "")
                lines = [line for line in output.get("traceback", []) if line != evalue]
                found.append({"cell": number, "kind": "error", "text": "\n".join([output.get("ename", "") + ": " + evalue] + lines)})
            elif output.get("output_type") == "stream" and output.get("name") == "stderr" and "error" in output.get("text", "").lower():
                found.append({"cell": number, "kind": "stderr", "text": output.get("text", "")})
    return found


# A kernel that dies before its first reply never ran a cell: jupyter_client picks free ports and the kernel binds
# them a moment later, so another process can take one in between (CI: NetMQ's AddressAlreadyInUseException). Such a
# start is tried once more, on new ports, and said on stderr; any later death is the notebook's problem.
STARTS = 2
DIED_AT_START = "Kernel died before replying to kernel_info"


def run(path, kernel):
    started = time.monotonic()
    for attempt in range(1, STARTS + 1):
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, kernel_name=kernel, timeout=600, allow_errors=True,
                                resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
        problems = []
        try:
            # start_kernel's keywords reach the kernel's Popen: its stdout joins this script's stderr.
            client.execute(stdout=sys.stderr.fileno())
        except Exception as ex:
            if DIED_AT_START in str(ex) and attempt < STARTS:
                print(f"run_notebooks.py: the kernel for {path} died before its first reply ({ex}); starting it again", file=sys.stderr, flush=True)
                continue
            problems.append({"cell": None, "kind": "nbclient", "text": "".join(traceback.format_exception(type(ex), ex, ex.__traceback__))})
        break
    problems = problems_of(nb) + problems
    return {"path": path, "seconds": round(time.monotonic() - started, 3), "cells": len(nb.cells), "problems": problems}


def wait_for_report(path, reports, root):
    report = os.path.join(reports, os.path.splitext(os.path.relpath(os.path.abspath(path), os.path.abspath(root)))[0] + ".html")
    while not (os.path.exists(report) or os.path.exists(os.path.join(reports, FINISHED))):
        time.sleep(0.5)


def main():
    parser = argparse.ArgumentParser(description="Run notebooks with nbclient and report their error outputs as JSON.")
    parser.add_argument("--kernel", default="perflab-csharp", help="the kernelspec's name (default: perflab-csharp)")
    parser.add_argument("--after", metavar="REPORTS", help="run each notebook once `perflab run --out REPORTS` has written its report")
    parser.add_argument("--root", metavar="FOLDER", help="with --after: the folder that `perflab run` was given")
    parser.add_argument("notebooks", nargs="+", metavar="NOTEBOOK")
    args = parser.parse_args()
    if (args.after is None) != (args.root is None):
        parser.error("--after and --root go together")
    if args.after:
        os.nice(10)  # inherited by the kernels this script starts
    ran = []
    for path in args.notebooks:
        if args.after:
            wait_for_report(path, args.after, args.root)
        ran.append(run(path, args.kernel))
    print(json.dumps({"kernel": args.kernel, "notebooks": ran}), flush=True)


if __name__ == "__main__":
    main()
