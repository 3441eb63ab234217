"""The test `aws` (test/support/aws-cli.ts): hands its call to the AWS CLI fork server (aws_cli_server.py).

Standard library only, so the shim starts without site-packages. The call passes the server its stdin, stdout and
stderr, its arguments, environment and directory, and exits with the status the CLI returned.

Usage: python -S aws_cli_call.py <socket> <args...>
"""

from __future__ import annotations

import array
import json
import os
import socket
import struct
import sys
from typing import Any

# The length prefix of a message: 4 bytes, big-endian.
HEADER = struct.Struct("!I")


def send_message(conn: socket.socket, data: Any, fds: tuple[int, ...] = ()) -> None:
    """Sends `data` as length-prefixed JSON, and `fds` beside it (SCM_RIGHTS)."""
    body = json.dumps(data).encode()
    payload = HEADER.pack(len(body)) + body
    if fds:
        conn.sendmsg([payload], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
    else:
        conn.sendall(payload)


def receive_message(conn: socket.socket) -> tuple[Any, list[int]]:
    """The next message and the descriptors that came with it; EOFError when the peer closed first."""
    fds = array.array("i")
    data, ancdata, _flags, _addr = conn.recvmsg(1 << 20, socket.CMSG_LEN(3 * fds.itemsize))
    for level, kind, cdata in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(cdata[: len(cdata) - (len(cdata) % fds.itemsize)])
    if len(data) < HEADER.size:
        raise EOFError("the peer closed the socket")
    (length,) = HEADER.unpack(data[: HEADER.size])
    body = data[HEADER.size :]
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            raise EOFError("the peer closed the socket")
        body += chunk
    return json.loads(body), list(fds)


def call(path: str, args: list[str]) -> int:
    """Runs `aws <args>` in the server at `path` on this process's streams; its exit status."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)
    send_message(conn, {"args": args, "env": dict(os.environ), "cwd": os.getcwd()}, fds=(0, 1, 2))
    try:
        reply, _ = receive_message(conn)
    except EOFError:
        print("aws (test fork server): the call ended without a status", file=sys.stderr)
        return 255
    return int(reply["status"])


if __name__ == "__main__":
    sys.exit(call(sys.argv[1], sys.argv[2:]))
