"""Times the course kernel through a real Jupyter client (jupyter_client, Debian's /usr/bin/python3).

One repetition: start the kernel, run the setup cell, a first benchmark cell, the same cell again
(a cache hit), and a trivial cell; print one JSON object of seconds. Driven by bench/kernel/measure.cs.
Usage: /usr/bin/python3 kernel_timing.py NOTEBOOK_FOLDER SETUP_CELL_FILE
"""
import json
import sys
import time

from jupyter_client.manager import start_new_kernel


def run(client, code, timeout=600):
    """Executes code; returns (seconds to execute_reply, reply status, error text)."""
    started = time.perf_counter()
    msg_id = client.execute(code)
    reply = client.get_shell_msg(timeout=timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = client.get_shell_msg(timeout=timeout)
    elapsed = time.perf_counter() - started
    content = reply["content"]
    return elapsed, content["status"], content.get("evalue", "")


def main():
    folder, setup_file = sys.argv[1], sys.argv[2]
    setup = open(setup_file, encoding="utf-8").read()
    benchmark = (
        "public class KernelProbe\n"
        "{\n"
        "    private readonly int[] _data = Enumerable.Range(0, 64).ToArray();\n"
        "    [Benchmark] public int Sum() { var s = 0; foreach (var x in _data) s += x; return s; }\n"
        "}\n"
        "await Lab.RunAsync<KernelProbe>()"
    )
    started = time.perf_counter()
    manager, client = start_new_kernel(kernel_name="perflab-csharp", cwd=folder, startup_timeout=60)
    ready = time.perf_counter() - started
    try:
        first, status1, error1 = run(client, "1 + 1")
        setup_seconds, status2, error2 = run(client, setup)
        bench_first, status3, error3 = run(client, benchmark)
        bench_again, status4, error4 = run(client, benchmark)
        errors = [e for s, e in [(status1, error1), (status2, error2), (status3, error3), (status4, error4)] if s != "ok"]
        print(json.dumps({
            "ready": ready,
            "first_result": ready + first,
            "setup_cell": setup_seconds,
            "benchmark_first": bench_first,
            "benchmark_cached": bench_again,
            "errors": errors,
        }))
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=False)


if __name__ == "__main__":
    main()
