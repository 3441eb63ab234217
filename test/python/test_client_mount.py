"""lib/scripts/client_mount.py, the record checker of client-mount.sh, tested directly (stdlib unittest).

The grammar a mount config must meet (docs/design.md, section 6), the check of the path to a mount point on the node
(path_problem_on_node, with a stand-in for lstat), and the two commands the script runs (check, walk) as a program.
test/integration/client-mount-grammar.test.ts runs the same checks through the whole script against an SSM emulator.
Run by test/unit/python-unit.test.ts: python -m unittest discover -s test/python.
"""

from __future__ import annotations

import ast
import ipaddress
import json
import os
import stat
import subprocess
import sys
import tempfile
import types
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

SCRIPT = Path(__file__).resolve().parents[2] / 'lib' / 'scripts' / 'client_mount.py'


def load() -> types.ModuleType:
    """client_mount.py as a module, less its last statement: the dispatch on sys.argv that runs it as a program."""
    tree = ast.parse(SCRIPT.read_text(), str(SCRIPT))
    last = tree.body[-1]
    if not (isinstance(last, ast.If) and any(isinstance(n, ast.Attribute) and n.attr == 'argv' for n in ast.walk(last.test))):
        raise AssertionError(f'{SCRIPT} must end with its dispatch on sys.argv')
    tree.body.pop()
    module = types.ModuleType('client_mount')
    module.__file__ = str(SCRIPT)
    exec(compile(tree, str(SCRIPT), 'exec'), module.__dict__)  # noqa: S102 - the repository's own file
    return module


cm = load()

ALLOWED = [ipaddress.IPv4Network('10.0.0.0/16')]
# A mount root that no host running the tests has, so that the walk from / finds it missing, and so finds no directory
# on the way that the host's users can write.
ROOT = '/storage-server-test-root'
ROOTS = [ROOT, '/scratch']
EXTRA = ['nosuid', 'nodev']
OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev'
FSX = 'fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com'
EFS = 'fs-0123456789abcdef0.efs.us-east-1.amazonaws.com'


def record(**fields: str) -> dict[str, str]:
    """A record whose fstab agrees with its fields (unless `fstab` is given), so that only the field under test is wrong."""
    rec = {'server': '10.0.0.5', 'exportPath': '/export/data', 'mountPoint': ROOT + '/data', 'fsType': 'nfs4', 'options': OPTIONS}
    rec.update({k: v for k, v in fields.items() if k != 'fstab'})
    sep = '@tcp:' if rec['fsType'] == 'lustre' else ':'
    rec['fstab'] = fields.get('fstab', f"{rec['server']}{sep}{rec['exportPath']} {rec['mountPoint']} {rec['fsType']} {rec['options']} 0 0")
    return rec


def problem(rec: Any) -> str | None:
    why: str | None = cm.problem(rec, ALLOWED, ROOTS)
    return why


class Grammar(unittest.TestCase):
    def test_home_is_a_root_only_with_the_allowance(self) -> None:
        self.assertIsNone(cm.root_problem('/home', [*ROOTS, '/home']))
        self.assertIsNotNone(cm.root_problem('/home', ROOTS))

    def test_a_good_nfs_record_is_accepted(self) -> None:
        self.assertIsNone(problem(record()))
        self.assertIsNone(problem(record(options='nconnect=16,nfsvers=4.2,lookupcache=pos,nosuid,ro')))
        self.assertIsNone(problem(record(mountPoint=ROOT)))

    def test_refused_records_name_the_reason(self) -> None:
        q = json.dumps
        outside = 'is not a mount root or below one; the mount roots are ' + ' '.join(ROOTS)
        chars = 'has an empty segment or a character other than A-Z a-z 0-9 . _ -'
        tab = ROOT + '/da\tta'
        forged = '10.0.0.5:/export/data /etc nfs4 suid 0 0'
        cases: list[tuple[str, Any, str]] = [
            ('not an object', ['10.0.0.5'], 'is not a JSON object'),
            ('a field missing', {k: v for k, v in record().items() if k != 'options'}, 'lacks string field(s) options'),
            ('a field not a string', {**record(), 'server': 5}, 'lacks string field(s) server'),
            ('an unknown fsType', record(fsType='nfs4;reboot'), 'fsType "nfs4;reboot" is not "nfs4" (or "lustre")'),
            ('the option suid', record(options=OPTIONS + ',suid'), 'options: "suid" is not an allowed mount option'),
            ('the option dev', record(options='dev,' + OPTIONS), 'options: "dev" is not an allowed mount option'),
            ('the option exec', record(options=OPTIONS + ',exec'), 'options: "exec" is not an allowed mount option'),
            ('defaults', record(options='defaults'), 'options: "defaults" is not an allowed mount option'),
            ('a value option without a value', record(options='rsize,hard'), 'options: "rsize" needs a value'),
            ('NFSv3', record(options='nfsvers=3,hard'), 'options: "nfsvers=3" has a value out of range'),
            ('rsize out of range', record(options='rsize=99999999'), 'options: "rsize=99999999" has a value out of range'),
            ('a leading zero', record(options='nconnect=08'), 'options: "nconnect=08" has a value out of range'),
            ('soft', record(options='soft,timeo=1,retrans=0'),
             'options: "soft" returns an I/O error after a timeout, which a program may not check: silent data loss (nfs(5)); use hard'),
            ('hard and soft', record(options='hard,soft'), 'options: "soft" returns an I/O error'),
            ('softerr', record(options='softerr'), 'options: "softerr" returns an error after a timeout'),
            ('ro and rw', record(options='ro,rw'), 'options: "rw" and "ro" contradict each other'),
            ('an option twice', record(options='hard,timeo=600,timeo=1'), 'options: "timeo" is given twice'),
            ('an empty option', record(options='hard,,_netdev'), 'options: "" is not an allowed mount option'),
            ('no options', record(options=''), 'options "" is empty or longer than 1024 characters'),
            ('a server outside', record(server='10.1.0.5'), 'server 10.1.0.5 is outside the allowed servers 10.0.0.0/16'),
            ('leading zeros', record(server='10.0.0.05'), 'server "10.0.0.05" is not an IPv4 address in canonical dotted-quad form'),
            ('0.0.0.0', record(server='0.0.0.0'), 'server "0.0.0.0" is not a host address'),  # noqa: S104 - refused, not bound
            ('a DNS name', record(server='nfs.example.com'), 'server "nfs.example.com" is not an IPv4 address'),
            ('a newline in server', record(server='10.0.0.5\n'), 'server "10.0.0.5\\n" is not an IPv4 address'),
            ('an FSx name as nfs4', record(server=FSX),
             f'server {q(FSX)} is an FSx DNS name, which needs fsType "lustre" (FSx for Lustre) or backend "fsx-openzfs" (FSx for OpenZFS)'),
            ('an FSx name of an EC2 backend', record(server=FSX, backend='ebs'), f'server {q(FSX)} is an FSx DNS name, which needs fsType "lustre"'),
            ('an unknown backend', record(backend='glusterfs'),
             'backend "glusterfs" is not one of ebs, instance-store, fsx-lustre, fsx-openzfs, efs, nfs'),
            ('an EFS name without backend efs', record(server=EFS), f'server {q(EFS)} is an EFS DNS name, which needs backend "efs"'),
            ('a backend not a string', {**record(), 'backend': ['fsx-openzfs']}, 'backend ["fsx-openzfs"] is not one of ebs, instance-store'),
            ('a null backend', {**record(), 'backend': None}, 'backend null is not one of'),
            ('fsx-lustre as nfs4', record(backend='fsx-lustre'), 'backend "fsx-lustre" does not fit fsType "nfs4" (fsx-lustre is mounted as'),
            ('a relative mountPoint', record(mountPoint='data'), 'mountPoint "data" is not an absolute path'),
            ('the mountPoint /', record(mountPoint='/'), 'mountPoint "/" is the root directory'),
            ('/etc/cron.d', record(mountPoint='/etc/cron.d'), 'mountPoint "/etc/cron.d" ' + outside),
            ('/home without the allowance', record(mountPoint='/home/x'), 'mountPoint "/home/x" ' + outside + ' (/home only with --allow-home)'),
            ('a name that only starts like a root', record(mountPoint='/scratchpad'), 'mountPoint "/scratchpad" ' + outside),
            ('a ".." segment', record(mountPoint=ROOT + '/../etc'), f'mountPoint {q(ROOT + "/../etc")} has a "." or ".." segment'),
            ('a trailing slash', record(mountPoint=ROOT + '/'), f'mountPoint {q(ROOT + "/")} {chars}'),
            ('a quote in exportPath', record(exportPath="/export/da'ta"), f'exportPath "/export/da\'ta" {chars}'),
            ('a tab in mountPoint', record(mountPoint=tab), f'mountPoint {q(tab)} {chars}'),
            ('a long path', record(exportPath='/' + 'a' * 255), 'exportPath "/' + 'a' * 255 + '" is longer than 255 characters'),
            ('an fstab of its own', record(fstab=forged), f'fstab {q(forged)} disagrees with its fields (expected '),
        ]
        for what, rec, why in cases:
            with self.subTest(what):
                self.assertTrue((problem(rec) or '').startswith(why), f'{problem(rec)!r} does not start with {why!r}')

    def test_a_lustre_record_needs_an_fsx_name_resolving_inside_the_allowance(self) -> None:
        lustre = {'server': FSX, 'exportPath': '/abcdefgh', 'fsType': 'lustre', 'options': 'relatime,flock,_netdev'}
        for what, addresses, fields, why in [
            ('inside', ['10.0.1.5'], {}, None),
            ('outside', ['10.0.1.5', '203.0.113.9'], {}, f'server {FSX} resolves to 203.0.113.9, outside the allowed servers 10.0.0.0/16'),
            ('unresolved', [], {}, f'server {FSX} does not resolve to an IPv4 address on this node (getent ahostsv4)'),
            ('an IP address', ['10.0.1.5'], {'server': '10.0.0.5'}, 'server "10.0.0.5" of a lustre record is not an FSx DNS name (fs-<id>.fsx.'),
            ('of backend fsx-lustre', ['10.0.1.5'], {'backend': 'fsx-lustre'}, None),
            ('of backend fsx-openzfs', ['10.0.1.5'], {'backend': 'fsx-openzfs'}, 'backend "fsx-openzfs" does not fit fsType "lustre"'),
            ('an export path', ['10.0.1.5'], {'exportPath': '/export/data'}, 'exportPath "/export/data" of a lustre record is not "/"'),
            ('an nfs option', ['10.0.1.5'], {'options': 'hard'}, 'options: "hard" is not an allowed mount option'),
        ]:
            with self.subTest(what), mock.patch.object(cm, 'resolve', return_value=addresses):
                got = problem(record(**{**lustre, **fields}))
                self.assertEqual(got if why is None else (got or '')[: len(why)], why)

    def test_an_openzfs_record_needs_an_fsx_name_resolving_inside_the_allowance(self) -> None:
        zfs = {'server': FSX, 'exportPath': '/fsx', 'fsType': 'nfs4', 'backend': 'fsx-openzfs', 'options': OPTIONS + ',nconnect=16'}
        rule = ('of an fsx-openzfs record (FSx for OpenZFS is mounted by its DNS name only) is not an FSx DNS name '
                '(fs-<id>.fsx.<region>.amazonaws.com)')
        svm = 'svm-0123456789abcdef0.' + FSX
        cn = 'fs-0123456789abcdef0.fsx.cn-north-1.amazonaws.com.cn'
        cases: list[tuple[str, list[str], dict[str, str], str | None]] = [
            ('inside', ['10.0.1.5'], {}, None),
            ('inside, in China', ['10.0.1.5'], {'server': cn}, None),
            ('a child volume', ['10.0.1.5'], {'exportPath': '/fsx/home'}, None),
            ('outside', ['10.0.1.5', '203.0.113.9'], {}, f'server {FSX} resolves to 203.0.113.9, outside the allowed servers 10.0.0.0/16'),
            ('unresolved', [], {}, f'server {FSX} does not resolve to an IPv4 address on this node (getent ahostsv4)'),
            ('an IP address', ['10.0.1.5'], {'server': '10.0.0.5'}, f'server "10.0.0.5" {rule}'),
            ('another name', ['10.0.1.5'], {'server': 'nfs.example.com'}, f'server "nfs.example.com" {rule}'),
            ('an FSx-like name elsewhere', ['10.0.1.5'], {'server': FSX + '.evil.example'}, f'server {json.dumps(FSX + ".evil.example")} {rule}'),
            ('an ONTAP SVM name', ['10.0.1.5'], {'server': svm}, f'server {json.dumps(svm)} {rule}'),
            ('a lustre-only option', ['10.0.1.5'], {'options': 'flock'}, 'options: "flock" is not an allowed mount option'),
        ]
        self.check_named_records(zfs, rule, cases)

    def check_named_records(self, base: dict[str, str], rule: str, cases: list[tuple[str, list[str], dict[str, str], str | None]]) -> None:
        """Each case: `base` with its fields, the addresses its name resolves to, and the refusal it starts with."""
        for what, addresses, fields, why in cases:
            with self.subTest(what), mock.patch.object(cm, 'resolve', return_value=addresses) as resolve:
                got = problem(record(**{**base, **fields}))
                self.assertEqual(got if why is None else (got or '')[: len(why)], why)
                if why is not None and rule in why:
                    resolve.assert_not_called()  # a name not of the service's form is never looked up

    def test_an_efs_record_needs_an_efs_name_resolving_inside_the_allowance(self) -> None:
        efs = {'server': EFS, 'exportPath': '/', 'fsType': 'nfs4', 'backend': 'efs',  # options: "Mount settings used by EFS mount helper"
               'options': 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev'}
        rule = 'of an efs record is not an EFS DNS name (fs-<id>.efs.<region>.amazonaws.com)'
        self.check_named_records(efs, rule, [
            ('inside', ['10.0.1.5'], {}, None),
            ('a directory of it', ['10.0.1.5'], {'exportPath': '/projects'}, None),
            ('inside, in China', ['10.0.1.5'], {'server': 'fs-01234567.efs.cn-north-1.amazonaws.com.cn'}, None),
            ('outside', ['10.0.1.5', '203.0.113.9'], {}, f'server {EFS} resolves to 203.0.113.9, outside the allowed servers 10.0.0.0/16'),
            ('unresolved', [], {}, f'server {EFS} does not resolve to an IPv4 address on this node (getent ahostsv4)'),
            ('an IP address', ['10.0.1.5'], {'server': '10.0.0.5'}, f'server "10.0.0.5" {rule}'),
            ('an FSx name', ['10.0.1.5'], {'server': FSX}, f'server {json.dumps(FSX)} {rule}'),
            ('an EFS-like name elsewhere', ['10.0.1.5'], {'server': EFS + '.evil.example'}, f'server {json.dumps(EFS + ".evil.example")} {rule}'),
            ('mounted as lustre', ['10.0.1.5'], {'fsType': 'lustre'}, 'backend "efs" does not fit fsType "lustre"'),
        ])

    def test_an_nfs_server_that_exists_is_checked_as_an_ec2_one_and_noresvport_is_for_efs_only(self) -> None:
        self.assertIsNone(problem(record(backend='nfs')))
        self.assertEqual(problem(record(backend='nfs', server='10.1.0.5')), 'server 10.1.0.5 is outside the allowed servers 10.0.0.0/16')
        self.assertEqual(problem(record(backend='nfs', server=EFS)), f'server {json.dumps(EFS)} is an EFS DNS name, which needs backend "efs"')
        for backend in ('ebs', 'nfs', None):  # servers this project makes export `secure`, which refuses its port
            fields = {'options': OPTIONS + ',noresvport', **({} if backend is None else {'backend': backend})}
            self.assertEqual(problem(record(**fields)), 'options: "noresvport" is not an allowed mount option')

    def test_records_of_ec2_backends_are_checked_as_before(self) -> None:
        self.assertIsNone(problem(record(backend='ebs')))
        self.assertIsNone(problem(record(backend='instance-store')))
        self.assertEqual(problem(record(backend='ebs', server='10.1.0.5')), 'server 10.1.0.5 is outside the allowed servers 10.0.0.0/16')

    def test_the_line_written_is_rebuilt_from_the_fields_with_the_forced_options(self) -> None:
        self.assertEqual(cm.forced('nosuid,hard,nodev,_netdev', EXTRA), 'hard,_netdev,nosuid,nodev')
        rec = record(server=FSX, exportPath='/abcdefgh', fsType='lustre', options='flock')
        self.assertEqual(cm.fstab_line(rec, 'flock,nosuid'), f'{FSX}@tcp:/abcdefgh {ROOT}/data lustre flock,nosuid 0 0')
        zfs = record(server=FSX, exportPath='/fsx', backend='fsx-openzfs')
        self.assertEqual(cm.fstab_line(zfs, 'hard,nosuid'), f'{FSX}:/fsx {ROOT}/data nfs4 hard,nosuid 0 0')
        self.assertEqual(cm.source_of(zfs), f'{FSX}:/fsx')

    def test_an_error_while_checking_is_one_line(self) -> None:
        self.assertEqual(cm.why_failed(RecursionError()), 'is nested too deeply to check (RecursionError)')
        self.assertTrue(cm.why_failed(json.JSONDecodeError('Expecting value', 'x', 0)).startswith('is not JSON (Expecting value'))
        self.assertEqual(cm.why_failed(OSError(5, 'Input/output error', '/x\n')),
                         "could not be checked (OSError: [Errno 5] Input/output error: '/x\\\\n')")


def lstat_of(tree: dict[str, tuple[int, int]]) -> Any:
    """A stand-in for os.lstat over `tree`: path -> (st_mode, st_uid); any other path is missing."""
    def lstat(p: str) -> os.stat_result:
        if p not in tree:
            raise FileNotFoundError(p)
        mode, uid = tree[p]
        return os.stat_result((mode, 0, 0, 0, uid, 0, 0, 0, 0, 0))
    return lstat


DIR = stat.S_IFDIR | 0o755


class PathOnNode(unittest.TestCase):
    def walk(self, mp: str, tree: dict[str, tuple[int, int]], euid: int = 0) -> tuple[str | None, list[str]]:
        with mock.patch.object(cm.os, 'lstat', lstat_of(tree)), mock.patch.object(cm.os, 'geteuid', return_value=euid):
            why, missing = cm.path_problem_on_node(mp)
        return why, missing

    def test_missing_directories_are_listed_top_down(self) -> None:
        self.assertEqual(self.walk('/data/a/b', {'/': (DIR, 0), '/data': (DIR, 0)}), (None, ['/data/a', '/data/a/b']))
        self.assertEqual(self.walk('/data', {'/': (DIR, 0), '/data': (DIR, 0)}), (None, []))

    def test_the_mount_point_itself_may_belong_to_anyone(self) -> None:
        self.assertEqual(self.walk('/data', {'/': (DIR, 0), '/data': (stat.S_IFDIR | 0o777, 1000)}), (None, []))

    def test_the_user_running_it_is_trusted_as_root_is(self) -> None:
        self.assertEqual(self.walk('/data/x', {'/': (DIR, 0), '/data': (DIR, 1000)}, euid=1000), (None, ['/data/x']))

    def test_a_path_another_user_could_change_is_refused(self) -> None:
        redirect = '; a user who can write a directory on the way could redirect the mount'
        for what, tree, why in [
            ('a link on the way', {'/data': (stat.S_IFLNK | 0o777, 0)}, 'mountPoint "/data/x": "/data" is a symbolic link on this node'),
            ('the mount point a link', {'/data': (DIR, 0), '/data/x': (stat.S_IFLNK | 0o777, 0)},
             'mountPoint "/data/x": it is a symbolic link on this node'),
            ('a file on the way', {'/data': (stat.S_IFREG | 0o644, 0)}, 'mountPoint "/data/x": "/data" is not a directory on this node'),
            ('a user owns one', {'/data': (DIR, 1000)},
             'mountPoint "/data/x": "/data" is owned by uid 1000, not root; a user who owns a directory on the way could redirect the mount'),
            ('group-writable', {'/data': (stat.S_IFDIR | 0o775, 0)}, 'mountPoint "/data/x": "/data" is writable by its group (mode 0775)' + redirect),
            ('others-writable', {'/data': (stat.S_IFDIR | 0o757, 0)}, 'mountPoint "/data/x": "/data" is writable by others (mode 0757)' + redirect),
            ('sticky, as /tmp', {'/data': (stat.S_IFDIR | 0o1777, 0)},
             'mountPoint "/data/x": "/data" is writable by group and others (mode 1777)' + redirect),
        ]:
            with self.subTest(what):
                self.assertEqual(self.walk('/data/x', {'/': (DIR, 0), **tree}), (why, []))


class NodeState(unittest.TestCase):
    """What a mount on the node would hide (its mount table, a directory's files) and what the package database owns."""

    def test_the_mount_table_is_read_with_its_escapes_undone(self) -> None:
        with tempfile.NamedTemporaryFile('w', suffix='.mountinfo') as f:
            f.write('22 1 0:21 / / rw - ext4 /dev/vda rw\n36 22 0:31 / /data/with\\040space rw,nosuid - nfs4 10.0.0.5:/x rw\n')
            f.flush()
            self.assertEqual(cm.mount_points(f.name), ['/', '/data/with space'])

    def test_a_mount_below_or_files_in_the_mount_point_are_refused(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            empty, full = os.path.join(d, 'empty'), os.path.join(d, 'full')
            os.mkdir(empty)
            os.mkdir(full)
            Path(full, 'job.out').write_text('x')
            self.assertIsNone(cm.hiding_problem(empty, ['/']))
            self.assertIsNone(cm.hiding_problem(os.path.join(d, 'missing'), ['/']))
            self.assertEqual(cm.hiding_problem(full, ['/']), f'mountPoint {json.dumps(full)} holds files on this node ("job.out" ...), '
                             'which a mount would hide; move them or choose another mountPoint')
            self.assertIsNone(cm.hiding_problem(full, ['/', full]), 'already mounted: its files are the mount\'s')
            self.assertEqual(cm.hiding_problem(empty, ['/', empty + '/in', empty + '/in/deeper']),
                             f'mountPoint {json.dumps(empty)}: {json.dumps(empty + "/in")} is mounted below it on this node, '
                             f'and a mount on {json.dumps(empty)} would hide it')
            self.assertIsNone(cm.hiding_problem(empty, ['/', empty + 'x/in']), 'a sibling that starts alike is not below')

    def test_homes_may_hide_the_local_ones(self) -> None:
        with mock.patch.object(cm.os, 'scandir', side_effect=AssertionError('not looked at')):
            self.assertIsNone(cm.hiding_problem('/home', ['/']))
            self.assertIsNone(cm.hiding_problem('/home/lab', ['/']))

    def owners(self, mps: list[str], dpkg: str = '', rpm: str = '') -> dict[str, str]:
        """package_owners with stand-ins for dpkg-query and rpm on PATH (shell scripts printing the given text); the e2e
        client-mount scenario runs the real dpkg-query against a package it installs."""
        with tempfile.TemporaryDirectory() as bin_dir:
            for name, body in (('dpkg-query', dpkg), ('rpm', rpm)):
                if body:
                    Path(bin_dir, name).write_text('#!/bin/sh\n' + body + '\n')
                    os.chmod(Path(bin_dir, name), 0o700)
            with mock.patch.dict(os.environ, {'PATH': bin_dir}):
                owned: dict[str, str] = cm.package_owners(mps)
        return owned

    def test_a_mount_point_a_package_owns_files_at_or_below_is_named(self) -> None:
        dpkg = 'echo "$@" >&2; printf \'%s\\n\' "aws-cfn-bootstrap: /opt/aws/bin" "diversion by x from: /opt/site/y" "base-files: /opt"; exit 1'
        owned = self.owners(['/opt/aws', '/opt/site', '/opt/aws2'], dpkg=dpkg)
        self.assertEqual(owned, {'/opt/aws': 'mountPoint "/opt/aws": the installed package(s) aws-cfn-bootstrap own "/opt/aws/bin" on this node, '
                                             'files a mount there would hide; choose a mountPoint no package owns'})
        rpm = "printf '/snap\\tsnapd\\n/usr/bin/ls\\tcoreutils\\n'"
        self.assertEqual(list(self.owners(['/snap', '/data'], rpm=rpm)), ['/snap'])
        self.assertEqual(self.owners(['/data']), {}, 'no package manager: nothing owned')

    def test_a_package_database_that_cannot_be_read_is_an_error(self) -> None:
        with self.assertRaisesRegex(OSError, r'dpkg-query -S failed \(exit 2\): locked'):
            self.owners(['/data'], dpkg='echo locked >&2; exit 2')
        with self.assertRaisesRegex(OSError, r'rpm -qa failed \(exit 1\)'):
            self.owners(['/data'], rpm='exit 1')


def run(*args: str, stdin: str = '') -> subprocess.CompletedProcess[str]:
    """client_mount.py as the script runs it (python3 -c, here from its file: the same argv)."""
    return subprocess.run([sys.executable, str(SCRIPT), *args], input=stdin, capture_output=True, text=True, check=False, timeout=60)  # noqa: S603


class Program(unittest.TestCase):
    PATH = '/storage-server/hpc1/storage/'

    def check(self, parameters: list[dict[str, str]], only: str = '') -> list[list[str]]:
        r = run('check', self.PATH, only, '10.0.0.0/16', ','.join(ROOTS), ','.join(EXTRA), stdin=json.dumps({'Parameters': parameters}))
        self.assertEqual((r.returncode, r.stderr), (0, ''))
        return [line.split('\t') for line in r.stdout.splitlines()]

    def parameter(self, server: str, value: Any) -> dict[str, str]:
        return {'Name': f'{self.PATH}{server}/mount', 'Value': value if isinstance(value, str) else json.dumps(value)}

    def test_check_prints_one_line_per_record_sorted_by_server(self) -> None:
        lines = self.check([
            self.parameter('b', record(options='hard,\tsoft')),
            self.parameter('a', record()),
            self.parameter('c', '{"server": '),
            self.parameter('d', '[' * 5000 + ']' * 5000),
            {'Name': f'{self.PATH}e/other', 'Value': '{}'},
            {'Name': '/storage-server/hpc2/storage/f/mount', 'Value': '{}'},
        ])
        name = f'{self.PATH}a/mount'
        line = f'10.0.0.5:/export/data {ROOT}/data nfs4 {OPTIONS},nosuid,nodev 0 0'
        self.assertEqual(lines[0], ['ok', 'a', name, '10.0.0.5:/export/data', ROOT + '/data', line])
        self.assertEqual(lines[1], ['bad', 'b', f'{self.PATH}b/mount', 'options: "\\tsoft" is not an allowed mount option'])
        self.assertEqual(lines[2][:3], ['bad', 'c', f'{self.PATH}c/mount'])
        self.assertTrue(lines[2][3].startswith('is not JSON ('))
        self.assertEqual(lines[3], ['bad', 'd', f'{self.PATH}d/mount', 'is nested too deeply to check (RecursionError)'])
        self.assertEqual(len(lines), 4)

    def test_check_gives_a_mount_point_to_the_first_server_only(self) -> None:
        lines = self.check([self.parameter('a', record()), self.parameter('b', record(server='10.0.0.6'))])
        self.assertEqual([line[:2] for line in lines], [['ok', 'a'], ['bad', 'b']])
        self.assertEqual(lines[1][3], f'mountPoint {ROOT}/data is already used by server a')

    def test_check_refuses_both_of_a_nested_pair(self) -> None:
        lines = self.check([self.parameter('outer', record(mountPoint=ROOT + '/n')), self.parameter('inner', record(mountPoint=ROOT + '/n/in')),
                            self.parameter('apart', record(mountPoint=ROOT + '/nn'))])
        self.assertEqual([line[:2] for line in lines], [['ok', 'apart'], ['bad', 'inner'], ['bad', 'outer']])
        self.assertEqual(lines[1][3], f'mountPoint "{ROOT}/n/in" lies below "{ROOT}/n", the mountPoint of server outer: mounted both, '
                         'one hides the other; give each server a mountPoint outside the others')
        self.assertEqual(lines[2][3], f'mountPoint "{ROOT}/n" holds "{ROOT}/n/in", the mountPoint of server inner: mounted both, '
                         'one hides the other; give each server a mountPoint outside the others')

    def test_check_refuses_a_mount_point_over_a_mount_of_the_node(self) -> None:
        with tempfile.NamedTemporaryFile('w', suffix='.mountinfo') as f:
            f.write(f'22 1 0:21 / / rw - ext4 /dev/vda rw\n40 22 0:41 / {ROOT}/n/local rw - xfs /dev/vdb rw\n')
            f.flush()
            with mock.patch.dict(os.environ, {'CLIENT_MOUNT_MOUNTINFO': f.name}):
                lines = self.check([self.parameter('a', record(mountPoint=ROOT + '/n'))])
                walked = run('walk', ROOT + '/n')
        self.assertEqual(lines[0][:2], ['bad', 'a'])
        self.assertIn(f'"{ROOT}/n/local" is mounted below it on this node', lines[0][3])
        self.assertEqual(walked.returncode, 3)
        self.assertIn(f'"{ROOT}/n/local" is mounted below it on this node', walked.stdout)

    def test_check_with_a_server_reads_that_one_only(self) -> None:
        lines = self.check([self.parameter('a', record()), self.parameter('b', record(mountPoint=ROOT + '/b'))], only='b')
        self.assertEqual([line[:2] for line in lines], [['ok', 'b']])

    def test_walk_prints_the_directories_to_make_or_exits_3(self) -> None:
        self.assertEqual((run('walk', ROOT + '/a').returncode, run('walk', ROOT + '/a').stdout), (0, f'{ROOT}\n{ROOT}/a\n'))
        refused = run('walk', '/proc/self/x')  # /proc/self is a symbolic link on every Linux
        self.assertEqual((refused.returncode, refused.stdout), (3, 'mountPoint "/proc/self/x": "/proc/self" is a symbolic link on this node\n'))


    def test_tombstones_prints_each_tombstone_of_its_own_server(self) -> None:
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
        r = run('tombstones', root, stdin=json.dumps(answer))
        self.assertEqual((r.returncode, r.stderr), (0, ''))
        self.assertEqual(r.stdout, 's1\tremoved at 2026-12-01T10:00:00.000Z\ns6\tremoved at ?\n')


if __name__ == '__main__':
    unittest.main()
