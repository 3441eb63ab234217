"""Unit tests of lib/scripts/client_mount_removed.py, client-mount.sh's reader of tombstones, run as the script runs it."""

from __future__ import annotations

import json
import subprocess
import sys
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / 'lib' / 'scripts' / 'client_mount_removed.py'


def run(root: str, answer: str) -> subprocess.CompletedProcess[str]:
    """The program as the script runs it (python3 -c, here from its file: the same argv)."""
    return subprocess.run([sys.executable, str(SCRIPT), root], input=answer, capture_output=True, text=True, check=False, timeout=60)  # noqa: S603


class Tombstones(unittest.TestCase):
    def test_prints_each_tombstone_of_its_own_server(self) -> None:
        root = '/storage-server/hpc1/removed/'
        stone = {'name': 's1', 'removedAt': '2026-12-01T10:00:00.000Z', 'removedBy': {}}
        answer = {'Parameters': [
            {'Name': root + 's1', 'Value': json.dumps(stone)},
            {'Name': root + 's2', 'Value': json.dumps({**stone, 'name': 's3'})},  # another server's name
            {'Name': root + 's4', 'Value': '{"someone": "else"}'},
            {'Name': root + 's5', 'Value': 'not json'},
            {'Name': root + 's6', 'Value': json.dumps({'name': 's6', 'removedAt': '$(reboot)'})},
            {'Name': '/storage-server/hpc2/removed/s1', 'Value': json.dumps(stone)},
        ], 'InvalidParameters': [root + 's7']}
        r = run(root, json.dumps(answer))
        self.assertEqual((r.returncode, r.stderr), (0, ''))
        self.assertEqual(r.stdout, 's1\tremoved at 2026-12-01T10:00:00.000Z\ns6\tremoved at ?\n')


if __name__ == '__main__':
    unittest.main()
