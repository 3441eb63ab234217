"""The AWS CLI of the test venv, imported once: a fork server for the tests' `aws` (test/support/aws-cli.ts).

Each `aws` a script under test runs costs about a second, nearly all of it importing the CLI. This server imports it
once, then serves each call (aws_cli_call.py) in a child forked for it: the child takes the caller's stdin, stdout
and stderr, arguments, environment and directory, runs the CLI's own entry point, and sends back its exit status. The
CLI code that runs is the venv's, unchanged; only the interpreter's start is shared.

Usage: python aws_cli_server.py <socket>   (prints "ready" once listening)
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import traceback

import awscli  # type: ignore[import-untyped]
from aws_cli_call import receive_message, send_message
from awscli.clidriver import main as aws_main  # type: ignore[import-untyped]

AWSCLI_DATA = os.path.join(os.path.dirname(os.path.abspath(awscli.__file__)), "data")


def run(conn: socket.socket) -> None:
    """Serves one call in this (forked) process."""
    request, fds = receive_message(conn)
    for target, fd in zip((0, 1, 2), fds):
        os.dup2(fd, target)
        os.close(fd)
    # Python's stream objects were made for the server's descriptors: new ones for the caller's.
    sys.stdin = os.fdopen(0, "r", closefd=False)
    sys.stdout = os.fdopen(1, "w", closefd=False)
    sys.stderr = os.fdopen(2, "w", closefd=False)
    os.environ.clear()
    os.environ.update(request["env"])
    # What importing awscli does to the environment, in awscli/__init__.py, done again for the caller's.
    paths = [os.path.expanduser(os.path.expandvars(p)) for p in os.environ.get("AWS_DATA_PATH", "").split(os.pathsep) if p]
    os.environ["AWS_DATA_PATH"] = os.pathsep.join([*paths, AWSCLI_DATA])
    os.chdir(request["cwd"])
    sys.argv = ["aws", *request["args"]]
    try:
        status = aws_main()
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    sys.stdout.flush()
    sys.stderr.flush()
    send_message(conn, {"status": status if isinstance(status, int) else 0})


def serve(path: str) -> None:
    """Listens on `path`, forking a child for each call; children are reaped by the kernel."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(64)
    print("ready", flush=True)
    while True:
        conn, _ = server.accept()
        if os.fork() == 0:
            server.close()
            try:
                run(conn)
            except BaseException:  # noqa: BLE001 -- reported on the caller's stderr, which this is
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(0)
        conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
