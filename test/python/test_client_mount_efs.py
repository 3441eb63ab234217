"""lib/scripts/client_mount.py on EFS over TLS: a record of fsType "efs", which amazon-efs-utils' mount.efs mounts.

What ExistingStorageSource.efs(id, { tls: true }) registers is accepted; fsType "efs" needs backend "efs" and the
"tls" option, which no other fsType takes, so that an efs record is never mounted in the clear (EFS-TLS-OPTION).
Run by test/unit/python-unit.test.ts with test_client_mount.py, whose loader and helpers it uses.
"""

from __future__ import annotations

import unittest
from unittest import mock

from test_client_mount import EFS, FSX, OPTIONS, ROOT, cm, problem, record

TLS = 'tls,nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev,nosuid,nodev'


class EfsOverTls(unittest.TestCase):
    def test_the_registered_record_is_accepted_and_each_departure_refused(self) -> None:
        base = {'server': EFS, 'exportPath': '/', 'fsType': 'efs', 'backend': 'efs', 'options': TLS}
        cases: list[tuple[str, dict[str, str], str | None]] = [
            ('accepted', {}, None),
            ('its line is type efs', {'fstab': f'{EFS}:/ {ROOT}/data nfs4 {TLS} 0 0'}, 'fstab '),
            ('without tls', {'options': OPTIONS}, 'options: "tls" is missing: fsType "efs" is EFS over TLS'),
            ('with nconnect', {'options': 'tls,nconnect=4'}, 'options: "nconnect=4" is not an allowed mount option'),
            ('soft', {'options': 'tls,soft'}, 'options: "soft" returns an I/O error'),
            ('backend nfs', {'backend': 'nfs', 'server': '10.0.0.5'}, 'backend "nfs" does not fit fsType "efs"'),
            ('backend fsx-openzfs', {'backend': 'fsx-openzfs', 'server': FSX}, 'backend "fsx-openzfs" does not fit fsType "efs"'),
        ]
        for what, fields, why in cases:
            with self.subTest(what), mock.patch.object(cm, 'resolve', return_value=['10.0.1.5']):
                got = problem(record(**{**base, **fields}))
                self.assertEqual(got if why is None else (got or '')[: len(why)], why)

    def test_efs_needs_its_backend_and_tls_is_for_efs_alone(self) -> None:
        self.assertEqual(problem(record(server=EFS, exportPath='/', fsType='efs', options='tls,_netdev')), 'fsType "efs" needs backend "efs"')
        for fs, backend in (('nfs4', 'efs'), ('nfs4', 'nfs'), ('lustre', 'fsx-lustre')):
            self.assertEqual(cm.option_problem('tls', fs, backend), 'options: "tls" is not an allowed mount option')
        self.assertEqual(problem(record(fsType='xfs')), 'fsType "xfs" is not "nfs4" (or "lustre", "efs")')
