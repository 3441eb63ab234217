# The record checker of client-mount.sh in lib/scripts. It parses the GetParametersByPath answer, checks each mount
# config against the grammar the script's header describes, and checks the path to a mount point on the node.
#   check <records path> <--server or ""> <allowed CIDRs> <mount roots> <forced options>   (the answer on stdin)
#   walk <mount point>
#   tombstones <removed path>   (a GetParameters answer on stdin): <server>TAB<removedAt> per tombstone of its server
# The script runs it with python3 -c. The SSM document carries this text in the script, less this opening comment, in
# place of the line that reads this file, as lib/script-parts.ts does it. So the text below is the document's, byte for
# byte. ruff and mypy check it, in test/unit/python-lint.test.ts, and test/python/test_client_mount.py unit-tests it.
# It is annotated for mypy's strict mode. The __future__ import keeps the annotations from being evaluated, so the
# nodes' python3 from 3.7 on runs it.

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from typing import Any, Callable

OCTET = r'(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
IPV4 = re.compile(OCTET + r'(\.' + OCTET + r'){3}')
FSX_DNS = re.compile(r'fs-[0-9a-f]{8,17}\.fsx\.[a-z0-9-]+\.amazonaws\.com(\.cn)?')
EFS_DNS = re.compile(r'fs-[0-9a-f]{8,17}\.efs\.[a-z0-9-]+\.amazonaws\.com(\.cn)?')  # EFS User Guide, "Mounting ... using DNS names"
LUSTRE_EXPORT = re.compile(r'/[a-z0-9]{3,8}')
SEGMENT = re.compile(r'[A-Za-z0-9._-]+')
NUMBER = re.compile(r'0|[1-9][0-9]{0,7}')
MAX_PATH, MAX_OPTIONS, MAX_DNS_NAME = 255, 1024, 253
MOUNTINFO_POINT = 4  # the mount point's field in /proc/self/mountinfo (proc(5)), from 0
# The mount table the script reads (tests point it elsewhere, as they do the script's MOUNTINFO).
MOUNTINFO = os.environ.get('CLIENT_MOUNT_MOUNTINFO', '/proc/self/mountinfo')
KEYS = ['server', 'exportPath', 'mountPoint', 'fsType', 'options', 'fstab']
# A record's optional `backend` (backend.ts: RECORD_BACKENDS); fsx-lustre is mounted as "lustre", others as "nfs4".
BACKENDS = ('ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs', 'efs', 'nfs')
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
FLAGS = {'nfs4': COMMON_FLAGS | {'hard'}, 'lustre': COMMON_FLAGS | {'flock', 'localflock', 'noflock'}}
BACKEND_FLAGS = {'efs': {'noresvport'}}  # EFS's mount helper's; this project's servers export `secure` (exports(5))
# Options refused with their own reason: nfs(5) on soft, "A so-called soft timeout can cause silent data corruption".
REFUSED = {'soft': 'returns an I/O error after a timeout, which a program may not check: silent data loss (nfs(5)); use hard',
           'softerr': 'returns an error after a timeout, which a program may not check (nfs(5)); use hard'}
EXCLUSIVE = [('rw', 'ro'), ('nfsvers', 'vers'), ('noatime', 'relatime'), ('flock', 'localflock', 'noflock')]

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

def fsx_name_problem(v: str, what: str, service: str = 'fsx') -> str | None:
    """Why v, the server of `what`, is not a DNS name of the service (fsx, efs), or None."""
    pattern, name = {'fsx': (FSX_DNS, 'FSx'), 'efs': (EFS_DNS, 'EFS')}[service]
    if len(v) <= MAX_DNS_NAME and pattern.fullmatch(v):
        return None
    return 'server ' + q(v) + ' of ' + what + ' is not an ' + name + ' DNS name (fs-<id>.' + service + '.<region>.amazonaws.com)'

def resolved_problem(v: str, allowed: list[ipaddress.IPv4Network]) -> str | None:
    """Why v, an FSx or EFS DNS name, does not resolve (as this node resolves it) to allowed servers only, or None."""
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
    """Why the record's server is not one this node may mount: an FSx or EFS DNS name for those, else an IP."""
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
    if rec.get('backend') == 'efs':
        return fsx_name_problem(v, 'an efs record', 'efs') or resolved_problem(v, allowed)
    if FSX_DNS.fullmatch(v):
        return 'server ' + q(v) + ' is an FSx DNS name, which needs fsType "lustre" (FSx for Lustre) or backend "fsx-openzfs" (FSx for OpenZFS)'
    if EFS_DNS.fullmatch(v):
        return 'server ' + q(v) + ' is an EFS DNS name, which needs backend "efs"'
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

def mount_points(mountinfo: str) -> list[str]:
    """The mount points of this node's mount table (field 5 of mountinfo, its octal escapes undone); none when the
    file is missing, as the script's other readers of it take it (it always exists on a node: proc(5))."""
    try:
        with open(mountinfo, encoding='utf-8', errors='surrogateescape') as f:
            fields = [line.split(' ') for line in f]
    except FileNotFoundError:
        return []
    return [re.sub(r'\\([0-7]{3})', lambda m: chr(int(m.group(1), 8)), x[4]) for x in fields if len(x) > MOUNTINFO_POINT]

def hiding_problem(mp: str, mounted: list[str]) -> str | None:
    """Why mounting on mp would hide something on this node (mount(8): the directory's previous contents become
    invisible), or None: a mount below mp, or, when mp is not mounted already, files in it. /home is exempt from
    the second (--allow-home puts homes on NFS over a node's local ones on purpose)."""
    if mp in mounted:
        return None
    below = sorted(m for m in mounted if m.startswith(mp + '/'))
    if below:
        return 'mountPoint ' + q(mp) + ': ' + q(below[0]) + ' is mounted below it on this node, and a mount on ' + q(mp) + ' would hide it'
    if mp == '/home' or mp.startswith('/home/'):
        return None
    try:
        with os.scandir(mp) as it:
            entry = next(it, None)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if entry is not None:
        return ('mountPoint ' + q(mp) + ' holds files on this node (' + q(entry.name) + ' ...), which a mount would hide; '
                'move them or choose another mountPoint')
    return None

def package_owners(mps: list[str]) -> dict[str, str]:
    """For each mount point an installed package owns files at or below: who owns what, from the package database
    (dpkg-query -S, rpm -qa); a directory such as /opt/aws or /snap holds files the node runs as root."""
    owned: dict[str, str] = {}
    found: list[tuple[str, str]] = []  # (path, packages)
    if not mps:
        return owned
    if shutil.which('dpkg-query'):
        patterns = [p for mp in mps for p in (mp, mp + '/*')]
        r = subprocess.run(['dpkg-query', '-S', *patterns], capture_output=True, text=True, check=False)  # noqa: S603, S607
        if r.returncode > 1:  # 1: some pattern matched nothing
            raise OSError('dpkg-query -S failed (exit ' + str(r.returncode) + '): ' + r.stderr.strip()[:200])
        for line in r.stdout.splitlines():
            pkgs, sep, path = line.partition(': ')
            if sep and path.startswith('/') and not pkgs.startswith('diversion by '):
                found.append((path, pkgs))
    if shutil.which('rpm'):
        r = subprocess.run(['rpm', '-qa', '--qf', '[%{FILENAMES}\\t%{NAME}\\n]'], capture_output=True, text=True, check=False)  # noqa: S607
        if r.returncode != 0:
            raise OSError('rpm -qa failed (exit ' + str(r.returncode) + '): ' + r.stderr.strip()[:200])
        found += [(path, pkg) for path, _, pkg in (line.partition('\t') for line in r.stdout.splitlines())]
    for mp in mps:
        hit = sorted((path, pkgs) for path, pkgs in found if path == mp or path.startswith(mp + '/'))
        if hit:
            owned[mp] = 'mountPoint ' + q(mp) + ': the installed package(s) ' + hit[0][1] + ' own ' + q(hit[0][0]) + \
                ' on this node, files a mount there would hide; choose a mountPoint no package owns'
    return owned

def option_problem(opt: str, fs: str, backend: object = None) -> str | None:
    """Why one option of a record is not allowed for its fsType (and backend), or None."""
    name, eq, value = opt.partition('=')
    if eq:
        rule = VALUED[fs].get(name)
        if rule is None or not rule(value):
            return 'options: ' + q(opt) + ' ' + ('has a value out of range' if rule else 'is not an allowed mount option')
    elif name in REFUSED and fs == 'nfs4':
        return 'options: ' + q(opt) + ' ' + REFUSED[name]
    elif name not in FLAGS[fs] and name not in BACKEND_FLAGS.get(str(backend), set()):
        return 'options: ' + q(opt) + (' needs a value' if name in VALUED[fs] else ' is not an allowed mount option')
    return None

def options_problem(v: str, fs: str, backend: object = None) -> str | None:
    if not v or len(v) > MAX_OPTIONS:
        return 'options ' + q(v) + ' is empty or longer than ' + str(MAX_OPTIONS) + ' characters'
    seen: set[str] = set()
    for opt in v.split(','):
        why = option_problem(opt, fs, backend)
        if why:
            return why
        name = opt.partition('=')[0]
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
    return (backend_problem(rec) or server_problem(rec, allowed) or  # an EFS file system mounts from its root, as AWS's does
            (None if rec.get('backend') == 'efs' and rec['exportPath'] == '/' else path_problem('exportPath', rec['exportPath'])) or
            path_problem('mountPoint', rec['mountPoint']) or
            root_problem(rec['mountPoint'], roots) or path_problem_on_node(rec['mountPoint'])[0] or
            options_problem(rec['options'], rec['fsType'], rec.get('backend')) or
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

def nesting(mps: dict[str, str]) -> dict[str, str]:
    """For each server whose mount point lies below another's, or holds another's, why: one would hide the other,
    and writes meant for one server would land on the other. Both of a pair are refused, whichever came first."""
    why: dict[str, str] = {}
    for srv, mp in sorted(mps.items()):
        for other, omp in sorted(mps.items()):
            if other != srv and omp.startswith(mp + '/'):
                why.setdefault(srv, 'mountPoint ' + q(mp) + ' holds ' + q(omp) + ', the mountPoint of server ' + other +
                               ': mounted both, one hides the other; give each server a mountPoint outside the others')
                why.setdefault(other, 'mountPoint ' + q(omp) + ' lies below ' + q(mp) + ', the mountPoint of server ' + srv +
                               ': mounted both, one hides the other; give each server a mountPoint outside the others')
    return why

def read_records(root: str, only: str) -> dict[str, dict[str, Any]]:
    """The GetParametersByPath answer on stdin: each mount config parameter under root by its server's name."""
    name_re = re.compile(re.escape(root) + r'([A-Za-z0-9_.-]{1,64})/mount')
    records: dict[str, dict[str, Any]] = {}
    for p in json.loads(sys.stdin.buffer.read()).get('Parameters', []):
        m = name_re.fullmatch(p.get('Name', ''))
        if m and (not only or m.group(1) == only):
            records[m.group(1)] = p
    return records

def check(root: str, only: str, allowed_text: str, roots_text: str, extra_text: str) -> None:
    allowed = [ipaddress.IPv4Network(c, strict=False) for c in allowed_text.split(',')]
    extra, roots = extra_text.split(','), roots_text.split(',')
    records = read_records(root, only)
    mounted = mount_points(MOUNTINFO)
    claimed: dict[str, str] = {}
    lines: dict[str, list[str]] = {}
    bad: dict[str, str] = {}
    for srv in sorted(records):
        name = records[srv]['Name']
        try:
            rec = json.loads(records[srv].get('Value', ''))
            why = problem(rec, allowed, roots) or hiding_problem(rec['mountPoint'], mounted)
            if not why and rec['mountPoint'] in claimed:
                why = 'mountPoint ' + rec['mountPoint'] + ' is already used by server ' + claimed[rec['mountPoint']]
            if not why:
                lines[srv] = ['ok', srv, name, source_of(rec), rec['mountPoint'], fstab_line(rec, forced(rec['options'], extra))]
                claimed[rec['mountPoint']] = srv
        except Exception as e:  # noqa: BLE001 - any error in one record skips that record only: the script's contract
            why = why_failed(e)
        if why:
            bad[srv] = why
    accepted = {srv: line[4] for srv, line in lines.items()}
    bad.update(nesting(accepted))
    try:
        owners = package_owners(sorted(set(accepted.values())))
    except Exception as e:  # noqa: BLE001 - an unreadable package database refuses every record: nothing is known safe
        owners = {mp: 'mountPoint ' + q(mp) + ': the package database ' + why_failed(e) for mp in accepted.values()}
    for srv, mp in accepted.items():
        if srv not in bad and mp in owners:
            bad[srv] = owners[mp]
    for srv in sorted(records):
        if srv in bad:
            print('\t'.join(['bad', srv, records[srv]['Name'], bad[srv].replace('\t', ' ').replace('\n', ' ')]))
        else:
            print('\t'.join(lines[srv]))

def walk(mp: str) -> None:
    """The node check just before mount: prints the directories to make, one a line; exit 3 with the reason."""
    try:
        why, missing = path_problem_on_node(mp)
        why = why or hiding_problem(mp, mount_points(MOUNTINFO))
    except Exception as e:  # noqa: BLE001 - e.g. an OSError from lstat: reported for this record, the others go on
        why, missing = 'mountPoint ' + q(mp) + ' ' + why_failed(e), []
    if why:
        print(why)
        sys.exit(3)
    print('\n'.join(missing))

def tombstones(root: str) -> None:
    """Each parameter <root><server> whose value is a tombstone of that server, as isTombstoneOf in records.ts says."""
    for p in json.loads(sys.stdin.buffer.read()).get('Parameters', []):
        srv = p.get('Name', '')[len(root):] if p.get('Name', '').startswith(root) else ''
        try:
            t = json.loads(p.get('Value', ''))
        except ValueError:
            continue
        if SEGMENT.fullmatch(srv) and isinstance(t, dict) and t.get('name') == srv and isinstance(t.get('removedAt'), str):
            print(srv + '\tremoved at ' + (t['removedAt'] if re.fullmatch(r'[0-9TZ:.+-]{1,40}', t['removedAt']) else '?'))

if sys.argv[1] == 'walk':
    walk(sys.argv[2])
elif sys.argv[1] == 'tombstones':
    tombstones(sys.argv[2])
else:
    check(*sys.argv[2:7])
