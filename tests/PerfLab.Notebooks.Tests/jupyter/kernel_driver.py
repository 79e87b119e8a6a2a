"""Drives the perflab-csharp kernel (or another, named at start) through jupyter_client, one JSON command per stdin line.

Started by JupyterKernelTests (JupyterDriver.cs) with JUPYTER_DATA_DIR, PERFLAB_HOME and PERFLAB_MODE set.
Every command is answered by exactly one JSON line on stdout; diagnostics go to stderr.

Commands:
  {"op": "start", "cwd": DIR}              start the kernel, wait_for_ready; answers spec and pid
      with "kernel": NAME, that kernelspec instead of perflab-csharp (.NET Interactive's, for its tests)
  {"op": "kernel_info"}                    the kernel_info_reply content
  {"op": "execute", "code": C, "timeout": S}   run a cell, collect its iopub outputs until idle (each with the
      display_id of its transient, and "sent", its header's date), then its execute_reply (with "sent" too)
      with "metadata": M, the execute_request carries M (JupyterLab sends {"cellId": ..., "deletedCells": [...]})
  {"op": "send", "code": C}                send an execute_request only; answers its msg_id
  {"op": "collect", "msg_id": M, "timeout": S} collect that cell's outputs until idle
  {"op": "interrupt"}                      km.interrupt_kernel()
  {"op": "complete", "code": C, "cursor_pos": N}
  {"op": "is_complete", "code": C}
  {"op": "shutdown"}                       km.shutdown_kernel(); answers how the process ended
"""
import json
import queue
import signal
import sys
import time
import traceback

from jupyter_client.manager import KernelManager

KERNEL_NAME = "perflab-csharp"
km = None
kc = None
pending_replies = {}


def output_of(msg):
    """An iopub message as an nbformat-like output, or None for messages that are not outputs."""
    kind = msg["msg_type"]
    content = msg["content"]
    if kind == "stream":
        return {"output_type": "stream", "name": content.get("name"), "text": content.get("text", "")}
    if kind in ("execute_result", "display_data", "update_display_data"):
        return {"output_type": kind, "data": content.get("data", {}), "execution_count": content.get("execution_count"),
                "display_id": content.get("transient", {}).get("display_id")}
    if kind == "error":
        return {"output_type": "error", "ename": content.get("ename"), "evalue": content.get("evalue"),
                "traceback": content.get("traceback", [])}
    return None


def sent(msg):
    """When the kernel stamped the message: its header's date, ISO 8601 (jupyter_client parses it into a datetime)."""
    date = msg["header"]["date"]
    return date.isoformat() if hasattr(date, "isoformat") else date


def collect(msg_id, timeout):
    """Outputs of one cell until its status is idle, then its execute_reply."""
    started = time.monotonic()
    deadline = started + timeout
    outputs = []
    idle = False
    while time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=max(0.05, min(1.0, deadline - time.monotonic())))
        except queue.Empty:
            continue
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle":
            idle = True
            break
        out = output_of(msg)
        if out is not None:
            out["at"] = round(time.monotonic() - started, 3)
            out["sent"] = sent(msg)
            outputs.append(out)
    reply = None
    if idle:
        reply_deadline = time.monotonic() + 10
        while reply is None and time.monotonic() < reply_deadline:
            try:
                msg = kc.get_shell_msg(timeout=1)
            except queue.Empty:
                continue
            parent = msg.get("parent_header", {}).get("msg_id")
            if parent == msg_id:
                reply = dict(msg["content"], sent=sent(msg))
            else:
                pending_replies[parent] = msg["content"]
    return {"idle": idle, "seconds": round(time.monotonic() - started, 3), "outputs": outputs, "reply": reply}


def shell_reply(msg_id, timeout=30):
    if msg_id in pending_replies:
        return pending_replies.pop(msg_id)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msg = kc.get_shell_msg(timeout=1)
        except queue.Empty:
            continue
        parent = msg.get("parent_header", {}).get("msg_id")
        if parent == msg_id:
            return msg["content"]
        pending_replies[parent] = msg["content"]
    return None


def handle(command):
    global km, kc
    op = command["op"]
    if op == "start":
        km = KernelManager(kernel_name=command.get("kernel", KERNEL_NAME))
        spec = km.kernel_spec
        # The kernel's stdout joins this script's stderr: stdout carries only the answers (.NET Interactive logs there).
        km.start_kernel(cwd=command.get("cwd"), stdout=sys.stderr.fileno())
        kc = km.client()
        kc.start_channels()
        started = time.monotonic()
        kc.wait_for_ready(timeout=command.get("timeout", 60))
        return {"ready": True, "seconds": round(time.monotonic() - started, 3), "pid": km.provisioner.process.pid,
                "resource_dir": spec.resource_dir, "argv": spec.argv, "interrupt_mode": spec.interrupt_mode}
    if op == "kernel_info":
        return shell_reply(kc.kernel_info())
    if op == "execute":
        if "metadata" not in command:
            return collect(kc.execute(command["code"]), command.get("timeout", 120))
        # kc.execute sends no metadata; the same request with it, as JupyterLab sends it.
        content = dict(code=command["code"], silent=False, store_history=True, user_expressions={},
                       allow_stdin=False, stop_on_error=True)
        msg = kc.session.msg("execute_request", content, metadata=command["metadata"])
        kc.shell_channel.send(msg)
        return collect(msg["header"]["msg_id"], command.get("timeout", 120))
    if op == "send":
        return {"msg_id": kc.execute(command["code"])}
    if op == "collect":
        return collect(command["msg_id"], command.get("timeout", 120))
    if op == "interrupt":
        km.interrupt_kernel()
        return {"interrupted": True}
    if op == "complete":
        code = command["code"]
        return shell_reply(kc.complete(code, command.get("cursor_pos", len(code))))
    if op == "is_complete":
        return shell_reply(kc.is_complete(command["code"]))
    if op == "shutdown":
        process = km.provisioner.process
        pid = process.pid
        kc.stop_channels()
        started = time.monotonic()
        km.shutdown_kernel()
        status = getattr(km, "_shutdown_status", None)
        return {"pid": pid, "seconds": round(time.monotonic() - started, 3), "alive": km.is_alive(),
                "returncode": process.poll(), "shutdown_status": getattr(status, "value", str(status))}
    raise ValueError("unknown op " + op)


def main():
    # Jupyter's interrupt is SIGINT, and a kernel started with SIGINT ignored never sees it: a process inherits an
    # ignored signal, and .NET keeps an inherited ignore (Python does too, until a handler is set). A test run started
    # in the background, as CI starts it, has SIGINT ignored; a Jupyter server started from a terminal has Python's
    # handler, so its kernels start with the default. The driver stands in for that server.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = {"ok": True, "result": handle(json.loads(line))}
        except Exception as ex:  # Reported to the test, which fails with it.
            answer = {"ok": False, "error": "".join(traceback.format_exception(type(ex), ex, ex.__traceback__))}
        print(json.dumps(answer), flush=True)
    if km is not None and km.has_kernel:
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
