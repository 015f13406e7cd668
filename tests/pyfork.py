"""A fork server for the test suite's Python runs: the MCP client, the boto3 oracles, DuckDB.

Each of those scripts spent most of its CPU importing the same libraries (`mcp` 1.4 s, `boto3`
0.35 s, in a suite that runs Python some hundred times: docs/benchmarks.md §17.14). The server
imports them once; each run is a fork of it that runs the script as `python SCRIPT ARGS` would.

    python tests/pyfork.py serve SOCKET         the server (the test harness starts one)
    python -S -E tests/pyfork.py run ARGS...    a run: ARGS as python's (`SCRIPT ...`, `-c CODE ...`)

A run passes its standard input, output and error (the descriptors themselves), its working
folder, environment and arguments to the server and exits with the fork's exit code. If the run
is killed, the fork sees its connection close and exits too. What runs is the same code on the
same interpreter: only the imports are shared.
"""

import array
import json
import os
import socket
import struct
import sys

EXIT = struct.Struct("!i")
LENGTH = struct.Struct("!I")
# Bounds the request (argv and environment) read from a connection.
MAX_REQUEST = 4 << 20


def run(argv):
    """The client: send our stdio, cwd, env and argv; exit with the fork's code."""
    request = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(os.environ["DYNOSCOPE_PYFORK"])
    fds = array.array("i", [0, 1, 2])
    conn.sendmsg([LENGTH.pack(len(request))], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
    conn.sendall(request)
    answer = b""
    while len(answer) < EXIT.size:
        chunk = conn.recv(EXIT.size - len(answer))
        if not chunk:
            sys.stderr.write("pyfork: the forked run ended without an exit code\n")
            sys.exit(70)
        answer += chunk
    sys.exit(EXIT.unpack(answer)[0])


def preload():
    """What the suite's scripts import, each if installed (a missing one is imported by the
    script that needs it, and fails there as it would without this server)."""
    import importlib

    for name in (
        "asyncio",
        "decimal",
        "unicodedata",
        "boto3",
        "boto3.dynamodb.types",
        "botocore.session",
        "jsonschema",
        "mcp",
        "mcp.client.stdio",
        "duckdb",
    ):
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def receive(conn):
    """The run's request and its three descriptors."""
    fds = array.array("i")
    head, ancillary, _, _ = conn.recvmsg(LENGTH.size, socket.CMSG_LEN(3 * fds.itemsize))
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - (len(data) % fds.itemsize)])
    if len(head) != LENGTH.size or len(fds) != 3:
        raise OSError("a run sent no request")
    (length,) = LENGTH.unpack(head)
    if length > MAX_REQUEST:
        raise OSError(f"a request of {length} bytes")
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            raise OSError("a run closed its request early")
        body += chunk
    return json.loads(body), list(fds)


def watch(conn):
    """Exit when the run is gone (killed by a test's timeout): nothing else reads `conn`."""
    import threading

    def wait():
        try:
            conn.recv(1)
        finally:
            os._exit(137)

    threading.Thread(target=wait, daemon=True).start()


def child(conn):
    """In the fork: become the run, run the script, answer its exit code."""
    import signal
    import runpy
    import traceback

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    request, fds = receive(conn)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    watch(conn)
    argv = request["argv"]
    code = 0
    try:
        if argv and argv[0] == "-c":
            sys.argv = ["-c"] + argv[2:]
            sys.path[0] = ""
            exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
        else:
            sys.argv = list(argv)
            sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as exit:
        if exit.code is None:
            code = 0
        elif isinstance(exit.code, int):
            code = exit.code
        else:
            print(exit.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    conn.sendall(EXIT.pack(code))
    os._exit(0)


def serve(path):
    import signal

    preload()
    # Forks are reaped by the kernel; each fork waits for its own children itself.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ready = path + ".binding"
    listener.bind(ready)
    listener.listen(64)
    # Appears under its name only once it accepts: the harness waits for the name.
    os.rename(ready, path)
    while True:
        conn, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            try:
                child(conn)
            finally:
                os._exit(70)
        conn.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2])
    elif sys.argv[1:2] == ["run"]:
        run(sys.argv[2:])
    else:
        sys.exit("usage: pyfork.py serve SOCKET | pyfork.py run ARGS...")
