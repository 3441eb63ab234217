"""The AWS CLI of the test venv, imported once: a fork server for the tests' `aws` (test/support/aws-cli.ts).

Each `aws` a script under test runs costs about a second: importing the CLI, then its plugins, then reading the
service's model files. This server does all three once, then serves each call (aws_cli_call.py) in a child forked for
it: the child takes the caller's stdin, stdout and stderr, arguments, environment and directory, runs the CLI's own
entry point, and sends back its exit status. The CLI code that runs is the venv's, unchanged; what is shared is the
interpreter, the imported modules and one data loader per AWS_DATA_PATH, warmed by a `--generate-cli-skeleton` call
for each operation named on the command line (the model files are read-only data, and each child has its own copy).

Usage: python aws_cli_server.py <socket> ["<service> <operation>" ...]   (prints "ready" once listening)
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import sys
import traceback
from collections.abc import Mapping

import awscli  # type: ignore[import-untyped]
import awscli.handlers  # type: ignore[import-untyped]  # the plugins every call loads
import botocore.loaders  # type: ignore[import-untyped]
import botocore.session  # type: ignore[import-untyped]
from aws_cli_call import receive_message, send_message
from awscli.clidriver import main as aws_main  # type: ignore[import-untyped]

AWSCLI_DATA = os.path.join(os.path.dirname(os.path.abspath(awscli.__file__)), "data")

_loaders: dict[str | None, botocore.loaders.Loader] = {}
_create_loader = botocore.loaders.create_loader


def shared_loader(search_path_string: str | None = None) -> botocore.loaders.Loader:
    """botocore's create_loader, one Loader per search path, so that what it has read stays for the next session."""
    if search_path_string not in _loaders:
        _loaders[search_path_string] = _create_loader(search_path_string)
    return _loaders[search_path_string]


botocore.session.create_loader = shared_loader


def caller_data_path(env: Mapping[str, str]) -> str:
    """AWS_DATA_PATH as importing awscli sets it (awscli/__init__.py), for the caller's environment."""
    paths = [os.path.expanduser(os.path.expandvars(p)) for p in env.get("AWS_DATA_PATH", "").split(os.pathsep) if p]
    return os.pathsep.join([*paths, AWSCLI_DATA])


def warm(operations: list[str]) -> None:
    """Reads each operation's model files into the shared loader, as a call without AWS_DATA_PATH would."""
    saved = dict(os.environ)
    os.environ.pop("AWS_DATA_PATH", None)
    os.environ.update(AWS_DATA_PATH=caller_data_path(os.environ), AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="")
    try:
        for operation in operations:
            sys.argv = ["aws", *operation.split(), "--generate-cli-skeleton"]
            with contextlib.redirect_stdout(io.StringIO()):
                status = aws_main()
            if status != 0:
                raise SystemExit(f"warming the AWS CLI with {operation!r} exited {status}")
    finally:
        os.environ.clear()
        os.environ.update(saved)


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
    # What importing awscli does to the environment, done again for the caller's.
    os.environ["AWS_DATA_PATH"] = caller_data_path(os.environ)
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
    socket_path, operations = sys.argv[1], sys.argv[2:]
    warm(operations)
    serve(socket_path)
