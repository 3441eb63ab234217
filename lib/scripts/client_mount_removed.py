# client-mount.sh's reader of tombstones: a GetParameters answer on stdin, the removed path <prefix>/<cluster>/removed/
# as argv[1]; prints <server>TAB"removed at <when>" for each parameter <path><server> whose value is a tombstone of that
# server, as isTombstoneOf in lambda/register/records.ts says. The script runs it with python3 -c; the SSM document
# carries this text, less this opening comment, in place of the line that reads this file (lib/script-parts.ts).
# test/python/test_client_mount_removed.py unit-tests it.

from __future__ import annotations

import json
import re
import sys

SEGMENT = re.compile(r'[A-Za-z0-9._-]+')
WHEN = re.compile(r'[0-9TZ:.+-]{1,40}')


def tombstones(root: str, answer: str) -> list[str]:
    """Each `<server>\\tremoved at <when>` of the answer's tombstones of their own server; the rest is skipped."""
    found = []
    for p in json.loads(answer).get('Parameters', []):
        name = p.get('Name', '')
        srv = name[len(root):] if name.startswith(root) else ''
        try:
            t = json.loads(p.get('Value', ''))
        except ValueError:
            continue
        if SEGMENT.fullmatch(srv) and isinstance(t, dict) and t.get('name') == srv and isinstance(t.get('removedAt'), str):
            found.append(srv + '\tremoved at ' + (t['removedAt'] if WHEN.fullmatch(t['removedAt']) else '?'))
    return found


for line in tombstones(sys.argv[1], sys.stdin.buffer.read().decode()):
    print(line)
