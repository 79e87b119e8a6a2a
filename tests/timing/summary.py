#!/usr/bin/python3
"""Where a test run's time went, from the .trx files `dotnet test --logger trx` wrote.

Prints each test project's wall time (its run's start to finish), test count and outcome counts, then the
slowest tests across all projects, so the next CI budget decision rests on numbers.

    /usr/bin/python3 tests/timing/summary.py RESULTS_DIR [--top N]

Only the standard library: it runs on Debian's python3 with nothing else installed.
"""
import argparse
import datetime
import glob
import os
import sys
import xml.etree.ElementTree as ET

NS = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}


def parse_time(text):
    # trx timestamps carry 7 fractional digits and an offset; fromisoformat takes at most 6 before 3.11.
    head, _, rest = text.partition(".")
    if rest:
        digits = "".join(c for c in rest if c.isdigit())
        offset = rest[len(digits):]
        text = head + "." + digits[:6] + offset
    return datetime.datetime.fromisoformat(text)


def parse_duration(text):
    hours, minutes, seconds = text.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def project_of(root, path):
    # A test method's codeBase names the test assembly as built (storage is the same path, lower-cased).
    for test in root.iterfind(".//t:UnitTest", NS):
        method = test.find("t:TestMethod", NS)
        where = (method.get("codeBase") if method is not None else None) or test.get("storage")
        if where:
            return os.path.splitext(os.path.basename(where))[0]
    return os.path.splitext(os.path.basename(path))[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="the folder holding the .trx files")
    parser.add_argument("--top", type=int, default=10, help="how many of the slowest tests to list")
    args = parser.parse_args()

    files = sorted(glob.glob(os.path.join(args.results, "**", "*.trx"), recursive=True))
    if not files:
        print(f"timing: no .trx files in {args.results} (did dotnet test run with --logger trx?)", file=sys.stderr)
        return 1

    projects = []
    tests = []
    for path in files:
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as error:
            print(f"timing: {path} is not a readable trx file ({error}); skipped", file=sys.stderr)
            continue
        project = project_of(root, path)
        times = root.find("t:Times", NS)
        wall = None
        if times is not None and times.get("start") and times.get("finish"):
            wall = (parse_time(times.get("finish")) - parse_time(times.get("start"))).total_seconds()
        outcomes = {}
        for result in root.iterfind(".//t:UnitTestResult", NS):
            outcome = result.get("outcome", "?")
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            duration = parse_duration(result.get("duration", "0:0:0"))
            tests.append((duration, project, result.get("testName", "?"), outcome))
        projects.append((project, wall, outcomes))

    print("Test time by project (wall clock of each project's run):")
    for project, wall, outcomes in sorted(projects, key=lambda p: -(p[1] or 0)):
        counts = ", ".join(f"{n} {o.lower()}" for o, n in sorted(outcomes.items()))
        shown = f"{wall / 60:5.1f} min" if wall is not None else "    ? min"
        print(f"  {shown}  {project}  ({counts})")
    print(f"Slowest {min(args.top, len(tests))} tests:")
    for duration, project, name, outcome in sorted(tests, reverse=True)[: args.top]:
        mark = "" if outcome == "Passed" else f"  [{outcome}]"
        print(f"  {duration:7.1f} s  {project}: {name}{mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
