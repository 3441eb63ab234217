# The record checker of client-mount.sh (lib/scripts): it parses the GetParametersByPath answer, checks each
# mount config against the grammar the script's header describes, and checks the path to a mount point on the node.
#   check <records path> <--server or ""> <allowed CIDRs> <mount roots> <forced options>   (the answer on stdin)
#   walk <mount point>
# The script runs it with python3 -c: the SSM document carries this text in the script, in place of the line that
# reads this file (lib/script-parts.ts), less this opening comment; so the text below is the document's, byte for
# byte. Checked by ruff and mypy (test/unit/python-lint.test.ts), unit-tested by test/python/test_client_mount.py.
# Annotated for mypy's strict mode; the annotations are never evaluated (the __future__ import), so the nodes'
# python3 from 3.7 on runs it.

from __future__ import annotations

import ipaddress
import json
import os
import re
import stat
import subprocess
import sys
from typing import Any, Callable

OCTET = r'(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
IPV4 = re.compile(OCTET + r'(\.' + OCTET + r'){3}')
FSX_DNS = re.compile(r'fs-[0-9a-f]{8,17}\.fsx\.[a-z0-9-]+\.amazonaws\.com(\.cn)?')
LUSTRE_EXPORT = re.compile(r'/[a-z0-9]{3,8}')
SEGMENT = re.compile(r'[A-Za-z0-9._-]+')
NUMBER = re.compile(r'0|[1-9][0-9]{0,7}')
MAX_PATH, MAX_OPTIONS, MAX_DNS_NAME = 255, 1024, 253
KEYS = ['server', 'exportPath', 'mountPoint', 'fsType', 'options', 'fstab']
# What a record's optional `backend` may say (lambda/register/backend.ts: BACKENDS); records written before FSx for
# OpenZFS have none. fsx-lustre is mounted as "lustre", every other backend as "nfs4".
BACKENDS = ('ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs')
BROADCAST = ipaddress.IPv4Address('255.255.255.255')
GROUP_WRITE, ANY_WRITE = 0o020, 0o022
Rule = Callable[[str], bool]

def number(lo: int, hi: int) -> Rule:
    return lambda v: bool(NUMBER.fullmatch(v)) and lo <= int(v) <= hi

def one_of(*values: str) -> Rule:
    return lambda v: v in values

VERSIONS = one_of('4', '4.1', '4.2')
# name=value options with their rule, and plain flags, per fsType. Nothing else is passed to mount.
VALUED: dict[str, dict[str, Rule]] = {
    'nfs4': {'nfsvers': VERSIONS, 'vers': VERSIONS, 'rsize': number(4096, 1048576),
             'wsize': number(4096, 1048576), 'timeo': number(1, 6000), 'retrans': number(0, 30),
             'actimeo': number(0, 3600), 'nconnect': number(1, 16), 'proto': one_of('tcp'),
             'sec': one_of('sys'), 'lookupcache': one_of('all', 'none', 'pos', 'positive')},
    'lustre': {},
}
COMMON_FLAGS = {'_netdev', 'noatime', 'nodiratime', 'relatime', 'nofail', 'nosuid', 'nodev', 'noexec',
                'rw', 'ro'}
FLAGS = {'nfs4': COMMON_FLAGS | {'hard', 'soft'}, 'lustre': COMMON_FLAGS | {'flock', 'localflock', 'noflock'}}
EXCLUSIVE = [('hard', 'soft'), ('rw', 'ro'), ('nfsvers', 'vers'), ('noatime', 'relatime'),
             ('flock', 'localflock', 'noflock')]

def q(v: object) -> str:
    """A value as JSON: quoted, with control characters, quotes and non-ASCII escaped (one safe line)."""
    return json.dumps(v)

def path_problem(field: str, v: str) -> str | None:
    what = field + ' ' + q(v)
    segments = v.split('/')[1:]
    if v == '/':
        return what + ' is the root directory'
    if not v.startswith('/'):
        return what + ' is not an absolute path'
    if len(v) > MAX_PATH:
        return what + ' is longer than ' + str(MAX_PATH) + ' characters'
    if any(s in ('.', '..') for s in segments):
        return what + ' has a "." or ".." segment'
    if not all(SEGMENT.fullmatch(s) for s in segments):
        return what + ' has an empty segment or a character other than A-Z a-z 0-9 . _ -'
    return None

def resolve(name: str) -> list[str]:
    """The IPv4 addresses of a name as this node resolves it (getent: the resolver mount.lustre and mount.nfs use), or []."""
    try:
        # A fixed argument list, no shell, getent from PATH as every tool here; its status says nothing its output
        # does not (no output: "does not resolve").
        out = subprocess.run(['getent', 'ahostsv4', name], capture_output=True, text=True, timeout=30, check=False).stdout  # noqa: S603, S607
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted({line.split()[0] for line in out.splitlines() if line.split() and IPV4.fullmatch(line.split()[0])})

def inside(address: str, allowed: list[ipaddress.IPv4Network]) -> bool:
    return any(ipaddress.IPv4Address(address) in net for net in allowed)

def fsx_name_problem(v: str, what: str) -> str | None:
    """Why v, the server of `what`, is not an FSx DNS name, or None."""
    if len(v) <= MAX_DNS_NAME and FSX_DNS.fullmatch(v):
        return None
    return 'server ' + q(v) + ' of ' + what + ' is not an FSx DNS name (fs-<id>.fsx.<region>.amazonaws.com)'

def resolved_problem(v: str, allowed: list[ipaddress.IPv4Network]) -> str | None:
    """Why v, an FSx DNS name, does not resolve (as this node resolves it) to allowed servers only, or None."""
    addresses = resolve(v)
    if not addresses:
        return 'server ' + v + ' does not resolve to an IPv4 address on this node (getent ahostsv4)'
    outside = [a for a in addresses if not inside(a, allowed)]
    if outside:
        return 'server ' + v + ' resolves to ' + ','.join(outside) + ', outside the allowed servers ' + ','.join(str(n) for n in allowed)
    return None

def backend_problem(rec: dict[str, Any]) -> str | None:
    """Why the record's backend (absent in records written before FSx for OpenZFS) does not fit its fsType, or None."""
    if 'backend' not in rec:
        return None
    b = rec['backend']
    if b not in BACKENDS:
        return 'backend ' + q(b)[:80] + ' is not one of ' + ', '.join(BACKENDS)
    if (b == 'fsx-lustre') != (rec['fsType'] == 'lustre'):
        return 'backend ' + q(b) + ' does not fit fsType ' + q(rec['fsType']) + ' (fsx-lustre is mounted as "lustre", every other backend as "nfs4")'
    return None

def server_problem(rec: dict[str, Any], allowed: list[ipaddress.IPv4Network]) -> str | None:
    """Why the record's server is not one this node may mount: an FSx DNS name for FSx (Lustre, OpenZFS), else an IP."""
    v, fs = rec['server'], rec['fsType']
    if fs == 'lustre':
        export = rec['exportPath']
        return (fsx_name_problem(v, 'a lustre record') or
                (None if LUSTRE_EXPORT.fullmatch(export) else
                 'exportPath ' + q(export) + ' of a lustre record is not "/" and a mount name (3-8 of a-z 0-9)') or
                resolved_problem(v, allowed))
    if rec.get('backend') == 'fsx-openzfs':
        return (fsx_name_problem(v, 'an fsx-openzfs record (FSx for OpenZFS is mounted by its DNS name only)') or
                resolved_problem(v, allowed))
    if FSX_DNS.fullmatch(v):
        return 'server ' + q(v) + ' is an FSx DNS name, which needs fsType "lustre" (FSx for Lustre) or backend "fsx-openzfs" (FSx for OpenZFS)'
    return ip_problem(v, allowed)

def ip_problem(v: str, allowed: list[ipaddress.IPv4Network]) -> str | None:
    """Why v, the server of an NFS server's record, is not an allowed server's IPv4 address, or None."""
    if not IPV4.fullmatch(v):
        return 'server ' + q(v) + ' is not an IPv4 address in canonical dotted-quad form (no leading zeros)'
    if ipaddress.IPv4Address(v).is_unspecified or ipaddress.IPv4Address(v) == BROADCAST:
        return 'server ' + q(v) + ' is not a host address'
    if not inside(v, allowed):
        return 'server ' + v + ' is outside the allowed servers ' + ','.join(str(n) for n in allowed)
    return None

def root_problem(mp: str, roots: list[str]) -> str | None:
    """Why mp is not a mount root or below one (an allowlist: nothing else on a node is data), or None."""
    if any(mp == r or mp.startswith(r + '/') for r in roots):
        return None
    hint = ' (/home only with --allow-home)' if (mp == '/home' or mp.startswith('/home/')) else ''
    return 'mountPoint ' + q(mp) + ' is not a mount root or below one; the mount roots are ' + ' '.join(roots) + hint

def path_problem_on_node(mp: str) -> tuple[str | None, list[str]]:
    """Why mounting on mp could put the data somewhere else than mp, or None; and the missing directories.

    Every directory from / down to mp's parent must exist as a directory (not a symbolic link: lstat, links are
    never followed), owned by root (or by the user running this, root under SSM) and writable by nobody else:
    not by the group, not by others, sticky bit or not (a sticky directory still lets every user add an entry).
    Then no user but root can create, rename or replace an entry anywhere on the path, so no one can plant a
    symbolic link between this check and mount(2), or swap a directory: the check cannot go stale, and a path
    is as safe to mount on as an open directory handle (mount(8) and mount.nfs take a path, and resolve
    /proc/self/fd/N back to one, so a handle would close nothing more). mp itself may be missing (then it and
    the missing parents are made by root, 0755) or a directory, never a symbolic link; its own owner and mode
    do not matter: the mount covers its contents, and only a writer of its parent could replace it. Returns
    (problem, missing directories, top down)."""
    trusted = {0, os.geteuid()}
    parts = mp.split('/')[1:]
    paths = ['/'] + ['/' + '/'.join(parts[:i]) for i in range(1, len(parts) + 1)]
    for i, p in enumerate(paths):
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            return None, paths[i:]
        what = 'mountPoint ' + q(mp) + ': ' + ('it' if p == mp else q(p))
        if stat.S_ISLNK(st.st_mode):
            return what + ' is a symbolic link on this node', []
        if not stat.S_ISDIR(st.st_mode):
            return what + ' is not a directory on this node', []
        if p == mp:
            break
        if st.st_uid not in trusted:
            return what + ' is owned by uid ' + str(st.st_uid) + ', not root; a user who owns a directory on the way could redirect the mount', []
        if st.st_mode & ANY_WRITE:
            return (what + ' is writable by ' + ('group and others' if st.st_mode & ANY_WRITE == ANY_WRITE else
                    'its group' if st.st_mode & GROUP_WRITE else 'others') + ' (mode ' + format(stat.S_IMODE(st.st_mode), '04o') +
                    '); a user who can write a directory on the way could redirect the mount'), []
    return None, []

def options_problem(v: str, fs: str) -> str | None:
    if not v or len(v) > MAX_OPTIONS:
        return 'options ' + q(v) + ' is empty or longer than ' + str(MAX_OPTIONS) + ' characters'
    seen: set[str] = set()
    for opt in v.split(','):
        name, eq, value = opt.partition('=')
        if eq:
            rule = VALUED[fs].get(name)
            if rule is None or not rule(value):
                why = 'has a value out of range' if rule else 'is not an allowed mount option'
                return 'options: ' + q(opt) + ' ' + why
        elif name not in FLAGS[fs]:
            needs = ' needs a value' if name in VALUED[fs] else ' is not an allowed mount option'
            return 'options: ' + q(opt) + needs
        if name in seen:
            return 'options: ' + q(name) + ' is given twice'
        seen.add(name)
    for group in EXCLUSIVE:
        both = [o for o in group if o in seen]
        if len(both) > 1:
            return 'options: ' + ' and '.join(q(o) for o in both) + ' contradict each other'
    return None

def fstab_line(rec: dict[str, Any], options: str) -> str:
    return ' '.join([source_of(rec), rec['mountPoint'], rec['fsType'], options, '0', '0'])

def source_of(rec: dict[str, Any]) -> str:
    """What mount is given and the mount table shows: <server>:<exportPath>, or <dns name>@tcp:/<name> for Lustre."""
    return str(rec['server']) + ('@tcp:' if rec['fsType'] == 'lustre' else ':') + str(rec['exportPath'])

def forced(options: str, extra: list[str]) -> str:
    """The record's options less the forced ones, then the forced ones, each once."""
    return ','.join([o for o in options.split(',') if o not in extra] + extra)

def problem(rec: object, allowed: list[ipaddress.IPv4Network], roots: list[str]) -> str | None:
    """Why a decoded record is not a mount config (docs/design.md, section 6) this node may mount, or None."""
    if not isinstance(rec, dict):
        return 'is not a JSON object'
    bad = [k for k in KEYS if not isinstance(rec.get(k), str)]
    if bad:
        return 'lacks string field(s) ' + ', '.join(bad)
    if rec['fsType'] not in ('nfs4', 'lustre'):
        return 'fsType ' + q(rec['fsType']) + ' is not "nfs4" (or "lustre")'
    return (backend_problem(rec) or server_problem(rec, allowed) or path_problem('exportPath', rec['exportPath']) or
            path_problem('mountPoint', rec['mountPoint']) or
            root_problem(rec['mountPoint'], roots) or path_problem_on_node(rec['mountPoint'])[0] or
            options_problem(rec['options'], rec['fsType']) or
            (None if rec['fstab'] == fstab_line(rec, rec['options']) else
             'fstab ' + q(rec['fstab']) + ' disagrees with its fields (expected ' +
             q(fstab_line(rec, rec['options'])) + ')'))

def why_failed(e: BaseException) -> str:
    """One line for an error raised while a record was checked: any error, so that one record never stops the rest."""
    if isinstance(e, RecursionError):
        return 'is nested too deeply to check (RecursionError)'
    if isinstance(e, json.JSONDecodeError):
        return 'is not JSON (' + str(e) + ')'
    return 'could not be checked (' + type(e).__name__ + ': ' + q(str(e))[1:-1][:200] + ')'

def check(root: str, only: str, allowed_text: str, roots_text: str, extra_text: str) -> None:
    allowed = [ipaddress.IPv4Network(c, strict=False) for c in allowed_text.split(',')]
    extra, roots = extra_text.split(','), roots_text.split(',')
    name_re = re.compile(re.escape(root) + r'([A-Za-z0-9_.-]{1,64})/mount')
    records: dict[str, dict[str, Any]] = {}
    for p in json.loads(sys.stdin.buffer.read()).get('Parameters', []):
        m = name_re.fullmatch(p.get('Name', ''))
        if m and (not only or m.group(1) == only):
            records[m.group(1)] = p
    claimed: dict[str, str] = {}
    for srv in sorted(records):
        name = records[srv]['Name']
        try:
            rec = json.loads(records[srv].get('Value', ''))
            why = problem(rec, allowed, roots)
            if not why and rec['mountPoint'] in claimed:
                why = 'mountPoint ' + rec['mountPoint'] + ' is already used by server ' + claimed[rec['mountPoint']]
            if not why:
                ok = '\t'.join(['ok', srv, name, source_of(rec), rec['mountPoint'], fstab_line(rec, forced(rec['options'], extra))])
        except Exception as e:  # noqa: BLE001 - any error in one record skips that record only: the script's contract
            why = why_failed(e)
        if why:
            print('\t'.join(['bad', srv, name, why.replace('\t', ' ').replace('\n', ' ')]))
            continue
        claimed[rec['mountPoint']] = srv
        print(ok)

def walk(mp: str) -> None:
    """The node check just before mount: prints the directories to make, one a line; exit 3 with the reason."""
    try:
        why, missing = path_problem_on_node(mp)
    except Exception as e:  # noqa: BLE001 - e.g. an OSError from lstat: reported for this record, the others go on
        why, missing = 'mountPoint ' + q(mp) + ' ' + why_failed(e), []
    if why:
        print(why)
        sys.exit(3)
    print('\n'.join(missing))

if sys.argv[1] == 'walk':
    walk(sys.argv[2])
else:
    check(*sys.argv[2:7])
