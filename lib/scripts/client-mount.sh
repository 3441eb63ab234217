#!/usr/bin/env bash
# Mounts the storage servers of an HPC cluster on this node (NFS servers and FSx for Lustre file systems), from
# the mount configs the StorageServer registration keeps in SSM Parameter Store (docs/design.md, section 6):
#   <prefix>/<cluster>/storage/<server>/mount = {"server","exportPath","mountPoint","fsType":"nfs4"|"lustre","options","fstab"}
# Run by the client-mount SSM document (State Manager: at a node's first boot and on a schedule) or by hand.
#
# Usage: client-mount.sh --cluster NAME --allowed-servers CIDR[,CIDR...] [--mount-roots DIR[,DIR...]] [--allow-home]
#                        [--read-ahead-kib N] [--prefix /storage-server] [--server NAME] [--fstab FILE] [--no-mount]
#                        [--dry-run]
#   --allowed-servers  required: the addresses a record's server may have (the VPC's CIDR); 1-32 prefix bits
#   --mount-roots  the directories a record may mount on or below (default /data,/scratch,/shared,/fsx);
#               never /, a system directory (SYSTEM_DIRECTORIES) or one below it
#   --allow-home  add /home to the mount roots (home directories on NFS)
#   --read-ahead-kib  NFS read-ahead, KiB, 0-1048576 (default 15360); 0 leaves the kernel's own (see below)
#   --server    only this server's config (default: every server of the cluster)
#   --fstab     the fstab to edit (default /etc/fstab); mounts use it too (mount -T)
#   --no-mount  edit the fstab, but create no directory and mount nothing
#   --dry-run   change nothing; print the report and the fstab that would be written
# Exit status: 0 every config is in fstab and mounted; 1 nothing done (bad usage, records unreadable);
# 2 done, but something needs a person: a record refused or failing in any way, a conflicting fstab line, a
# config that disappeared, or a mount that failed. Each is reported on one line starting ATTENTION, with the
# parameter or fstab entry; every other record is still written and mounted.
#
# The records are input from whoever can write the parameters, and this script runs as root on every
# node, so each record is checked against a strict grammar before anything of it is used (python3 below):
# the server is a canonical IPv4 address inside --allowed-servers, or for fsType "lustre" an FSx for Lustre DNS
# name (fs-<id>.fsx.<region>.amazonaws.com) every address of which (getent ahostsv4) lies inside --allowed-servers,
# with exportPath "/<mount name>" (3-8 lower-case letters and digits); exportPath and mountPoint are absolute
# paths of [A-Za-z0-9._-] segments; the mount point is a mount root or below one (an allowlist: --mount-roots,
# /home only with --allow-home), and no directory on the way to it is a symbolic link or writable by anyone but
# root (see path_problem_on_node); every option is in an allowlist (no suid, dev or exec); fstab is exactly the
# line the fields make. A record that fails, by a check or by any error while it is checked (a RecursionError
# from deeply nested JSON, an OSError), is reported as "ATTENTION <parameter>: <why>" and skipped: no directory,
# no fstab line, no mount; the other records go on. What is
# written and mounted is the line rebuilt from the checked fields with nosuid,nodev added, never the
# record's own text, and the shell below only passes the checked fields on, quoted, never evaluated.
#
# Every line this script owns ends with the tag " # storage-server:<cluster>/<server>", so a re-run
# replaces it in place and never adds a second one. libmount (mount, findmnt, systemd's fstab
# generator) ignores text after the sixth field. A line whose config disappeared is reported and
# left alone, still mounted: a config can vanish briefly while a server is replaced, and unmounting a
# busy data mount, or dropping it from fstab so the next boot writes into the bare directory, does
# more harm than a stale line a person removes by hand.
#
# Records are read with the AWS CLI (`aws ssm get-parameters-by-path ... --recursive`): the CLI signs
# the requests, finds the credentials (the instance role included) and reads every page. When `aws` is
# missing, the distribution's package is installed (not by --dry-run): awscli-2 with dnf (Amazon Linux
# 2023), awscli with yum (Amazon Linux 2) or with apt-get (Debian; Ubuntu dropped it in 24.04, install
# the CLI by hand there); if that fails, the script stops with exit 1. The region is AWS_REGION or
# AWS_DEFAULT_REGION, else the instance's own, asked of the instance metadata service (IMDSv2, curl).
# AWS_ENDPOINT_URL_SSM or AWS_ENDPOINT_URL is passed on as --endpoint-url, because older packaged CLIs
# (Debian 12's 2.9) ignore those variables. python3 parses and checks the records, which plain shell
# cannot do safely; it is on every image cloud-init runs on.
#
# Lustre records need the Lustre client (mount.lustre). Where it is missing it is installed before any lustre
# line is written (not by --dry-run or --no-mount): the distribution's lustre-client with dnf (Amazon Linux 2023),
# amazon-linux-extras' lustre (Amazon Linux 2), or with apt-get the client modules built for the running kernel,
# lustre-client-modules-$(uname -r), which AWS's FSx for Lustre client repository provides for Ubuntu. When none
# can be installed, each lustre record is reported (ATTENTION NO-LUSTRE-CLIENT, naming the kernel) and skipped:
# no fstab line that would fail at every boot; the NFS records are mounted as usual.
#
# nconnect (docs/design.md, section 9; sources: docs/sources/nconnect.md). An NFS record may ask for nconnect=N
# (several TCP connections per mount: Linux 5.3 and later, backported to some older kernels). A kernel that does
# not know the option refuses the whole mount (mount(2) EINVAL, which mount.nfs reports as "an incorrect mount
# option was specified", exit 32 [NFSUTILS-ERR]), so a line with it would fail at every boot. Before the line is
# written, a run that mounts therefore finds out whether this kernel takes it: an NFS mount on this node already
# showing nconnect= in /proc/self/mountinfo says yes; else a probe mounts the record's export with the line's options
# on a private temporary directory (and unmounts it). Success, or a failure other than that refusal (the kernel
# parses the options before it reaches the server), says yes. The refusal is retried once without nconnect: if that
# is not refused too, nconnect was the cause, and every line of this run is written without it, with one line
# saying so ("nconnect dropped ..."). Kernel versions are not compared: backports (RHEL 8.3's 4.18, SLES's 4.12)
# make them wrong both ways. Never -s (sloppy): it would let an old kernel ignore the option silently.
# --no-mount and --dry-run mount nothing, so they probe nothing and keep the record's nconnect.
#
# Read-ahead. Since Linux 5.4 an NFS mount reads ahead 128 KiB, which starves sequential reads; AWS recommends
# 15 MiB, as its efs-utils sets (15 x rsize) [EFS-PERF-2023]. With --read-ahead-kib N > 0 the script writes N to
# /sys/class/bdi/<major>:<minor>/read_ahead_kb of each NFS mount it manages (major:minor: field 3 of
# /proc/self/mountinfo, not AWS's "0:$(stat -c %d)", wrong past minor 255), and installs for every later NFS
# mount, reboots included, a udev rule on the bdi's "add" event that recognises NFS bdis by
# /proc/fs/nfsfs/volumes, as amazon-ec2-utils' 53-ec2-read-ahead-kb.rules does [EC2UTILS-UDEV]. nfs-utils 2.6.2
# and later ship 99-nfs.rules, whose nfsrahead sets 128 unless nfs.conf has an [nfsrahead] section [NFSRAHEAD];
# so the rule's name sorts after it (99-storage-server-...), and an [nfsrahead] section with N goes into
# /etc/nfs.conf.d, so that both rules set the same value. 0 leaves the kernel's value to later mounts: the rule
# and the section are removed (mounts already made keep theirs until they are mounted again).
set -euo pipefail

readonly TAG_PREFIX='# storage-server:'
# Mount roots refused at and below these (lib/validation.ts keeps the same list; a test compares them). A
# record's mount point is judged by the allowlist of roots, not by this list.
readonly SYSTEM_DIRECTORIES='/bin /boot /dev /etc /home /lib /lib32 /lib64 /libx32 /proc /root /run /sbin /sys /tmp /usr /var'
# The mount options every line gets, whatever the record says: no setuid programs, no device files.
readonly FORCED_OPTIONS='nosuid,nodev'
# Where records may mount unless --mount-roots says otherwise (lib/validation.ts: DEFAULT_MOUNT_ROOTS).
readonly DEFAULT_MOUNT_ROOTS='/data,/scratch,/shared,/fsx'
# A canonical dotted quad and prefix length: no leading zeros, each number 0-255, /1-/32.
readonly OCTET='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
readonly CIDR_RE="^$OCTET(\\.$OCTET){3}/(3[0-2]|[12][0-9]|[1-9])\$"
# NFS read-ahead, KiB: the default (lib/sizing/nfs-client.ts: DEFAULT_READ_AHEAD_KIB) and the largest accepted
# (lib/validation.ts: MAX_READ_AHEAD_KIB); a unit test compares them.
readonly DEFAULT_READ_AHEAD_KIB=15360 MAX_READ_AHEAD_KIB=1048576
# Where the read-ahead lives (tests point these elsewhere): the udev rule, nfsrahead's section, sysfs, the mount table.
readonly READ_AHEAD_RULE=${CLIENT_MOUNT_UDEV_RULE:-/etc/udev/rules.d/99-storage-server-nfs-read-ahead.rules}
readonly READ_AHEAD_CONF=${CLIENT_MOUNT_NFS_CONF:-/etc/nfs.conf.d/storage-server-read-ahead.conf}
readonly SYSFS=${CLIENT_MOUNT_SYSFS:-/sys}
readonly MOUNTINFO=${CLIENT_MOUNT_MOUNTINFO:-/proc/self/mountinfo}
cluster='' prefix='/storage-server' server='' fstab='/etc/fstab' do_mount=1 dry_run=0
allowed_servers='' allow_home=0 mount_roots=$DEFAULT_MOUNT_ROOTS read_ahead=$DEFAULT_READ_AHEAD_KIB
# Whether this kernel takes nconnect: unknown until a record asks for it (nconnect_ok).
nconnect_state=unknown nconnect_why=''
attempts=${CLIENT_MOUNT_ATTEMPTS:-3} retry_delay=${CLIENT_MOUNT_RETRY_DELAY:-10}
lock_file=${CLIENT_MOUNT_LOCK:-/run/lock/storage-server-client-mount.lock}
attention=0

say() { printf 'client-mount: %s\n' "$*"; }
warn() {
  attention=1
  printf 'client-mount: ATTENTION %s\n' "$*"
}
die() {
  printf 'client-mount: ERROR %s\n' "$*" >&2
  exit 1
}

# `check`: reads the GetParametersByPath answer on stdin; prints one tab-separated line per server's record:
#   ok <server> <parameter> <source> <mount point> <fstab line to write>   (every field checked)
#   bad <server> <parameter> <why>
# Arguments: check, records path, --server (or ''), allowed CIDRs, mount roots (comma list), forced options.
# `walk <mount point>`: the node check again, just before the mount (path_problem_on_node): prints the
# directories to make, or exits 3 with the reason.
read -r -d '' PY <<'PYTHON' || true
import ipaddress, json, os, re, stat, subprocess, sys

OCTET = r'(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
IPV4 = re.compile(OCTET + r'(\.' + OCTET + r'){3}')
FSX_DNS = re.compile(r'fs-[0-9a-f]{8,17}\.fsx\.[a-z0-9-]+\.amazonaws\.com(\.cn)?')
LUSTRE_EXPORT = re.compile(r'/[a-z0-9]{3,8}')
SEGMENT = re.compile(r'[A-Za-z0-9._-]+')
NUMBER = re.compile(r'0|[1-9][0-9]{0,7}')
MAX_PATH, MAX_OPTIONS = 255, 1024
KEYS = ['server', 'exportPath', 'mountPoint', 'fsType', 'options', 'fstab']

def number(lo, hi):
    return lambda v: bool(NUMBER.fullmatch(v)) and lo <= int(v) <= hi

def one_of(*values):
    return lambda v: v in values

VERSIONS = one_of('4', '4.1', '4.2')
# name=value options with their rule, and plain flags, per fsType. Nothing else is passed to mount.
VALUED = {
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

def q(v):
    """A value as JSON: quoted, with control characters, quotes and non-ASCII escaped (one safe line)."""
    return json.dumps(v)

def path_problem(field, v):
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

def resolve(name):
    """The IPv4 addresses of a name as this node resolves it (getent: the resolver mount.lustre uses), or []."""
    try:
        out = subprocess.run(['getent', 'ahostsv4', name], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted({line.split()[0] for line in out.splitlines() if line.split() and IPV4.fullmatch(line.split()[0])})

def server_problem(rec, allowed):
    v, fs = rec['server'], rec['fsType']
    if fs == 'lustre':
        if not (len(v) <= 253 and FSX_DNS.fullmatch(v)):
            return 'server ' + q(v) + ' of a lustre record is not an FSx for Lustre DNS name (fs-<id>.fsx.<region>.amazonaws.com)'
        if not LUSTRE_EXPORT.fullmatch(rec['exportPath']):
            return 'exportPath ' + q(rec['exportPath']) + ' of a lustre record is not "/" and a mount name (3-8 of a-z 0-9)'
        addresses = resolve(v)
        if not addresses:
            return 'server ' + v + ' does not resolve to an IPv4 address on this node (getent ahostsv4)'
        outside = [a for a in addresses if not any(ipaddress.IPv4Address(a) in net for net in allowed)]
        if outside:
            return 'server ' + v + ' resolves to ' + ','.join(outside) + ', outside the allowed servers ' + ','.join(str(n) for n in allowed)
        return None
    if FSX_DNS.fullmatch(v):
        return 'server ' + q(v) + ' is an FSx for Lustre DNS name, which needs fsType "lustre"'
    if not IPV4.fullmatch(v):
        return 'server ' + q(v) + ' is not an IPv4 address in canonical dotted-quad form (no leading zeros)'
    if v in ('0.0.0.0', '255.255.255.255'):
        return 'server ' + q(v) + ' is not a host address'
    if not any(ipaddress.IPv4Address(v) in net for net in allowed):
        return 'server ' + v + ' is outside the allowed servers ' + ','.join(str(n) for n in allowed)
    return None

def root_problem(mp, roots):
    """Why mp is not a mount root or below one (an allowlist: nothing else on a node is data), or None."""
    if any(mp == r or mp.startswith(r + '/') for r in roots):
        return None
    hint = ' (/home only with --allow-home)' if (mp == '/home' or mp.startswith('/home/')) else ''
    return 'mountPoint ' + q(mp) + ' is not a mount root or below one; the mount roots are ' + ' '.join(roots) + hint

def path_problem_on_node(mp):
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
        if st.st_mode & 0o022:
            return (what + ' is writable by ' + ('group and others' if st.st_mode & 0o022 == 0o022 else
                    'its group' if st.st_mode & 0o020 else 'others') + ' (mode ' + format(stat.S_IMODE(st.st_mode), '04o') +
                    '); a user who can write a directory on the way could redirect the mount'), []
    return None, []

def options_problem(v, fs):
    if not v or len(v) > MAX_OPTIONS:
        return 'options ' + q(v) + ' is empty or longer than ' + str(MAX_OPTIONS) + ' characters'
    seen = set()
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

def fstab_line(rec, options):
    source = rec['server'] + ('@tcp:' if rec['fsType'] == 'lustre' else ':') + rec['exportPath']
    return ' '.join([source, rec['mountPoint'], rec['fsType'], options, '0', '0'])

def forced(options, extra):
    """The record's options less the forced ones, then the forced ones, each once."""
    return ','.join([o for o in options.split(',') if o not in extra] + extra)

def problem(rec, allowed, roots, extra):
    """Why a decoded record is not a mount config (docs/design.md, section 6) this node may mount, or None."""
    if not isinstance(rec, dict):
        return 'is not a JSON object'
    bad = [k for k in KEYS if not isinstance(rec.get(k), str)]
    if bad:
        return 'lacks string field(s) ' + ', '.join(bad)
    if rec['fsType'] not in ('nfs4', 'lustre'):
        return 'fsType ' + q(rec['fsType']) + ' is not "nfs4" (or "lustre")'
    return (server_problem(rec, allowed) or path_problem('exportPath', rec['exportPath']) or
            path_problem('mountPoint', rec['mountPoint']) or
            root_problem(rec['mountPoint'], roots) or path_problem_on_node(rec['mountPoint'])[0] or
            options_problem(rec['options'], rec['fsType']) or
            (None if rec['fstab'] == fstab_line(rec, rec['options']) else
             'fstab ' + q(rec['fstab']) + ' disagrees with its fields (expected ' +
             q(fstab_line(rec, rec['options'])) + ')'))

def why_failed(e):
    """One line for an error raised while a record was checked: any error, so that one record never stops the rest."""
    if isinstance(e, RecursionError):
        return 'is nested too deeply to check (RecursionError)'
    if isinstance(e, json.JSONDecodeError):
        return 'is not JSON (' + str(e) + ')'
    return 'could not be checked (' + type(e).__name__ + ': ' + q(str(e))[1:-1][:200] + ')'

def check(root, only, allowed_text, roots_text, extra_text):
    allowed = [ipaddress.IPv4Network(c, strict=False) for c in allowed_text.split(',')]
    extra, roots = extra_text.split(','), roots_text.split(',')
    name_re = re.compile(re.escape(root) + r'([A-Za-z0-9_.-]{1,64})/mount')
    records = {}
    for p in json.loads(sys.stdin.buffer.read()).get('Parameters', []):
        m = name_re.fullmatch(p.get('Name', ''))
        if m and (not only or m.group(1) == only):
            records[m.group(1)] = p
    claimed = {}
    for srv in sorted(records):
        name = records[srv]['Name']
        try:
            rec = json.loads(records[srv].get('Value', ''))
            why = problem(rec, allowed, roots, extra)
            if not why and rec['mountPoint'] in claimed:
                why = 'mountPoint ' + rec['mountPoint'] + ' is already used by server ' + claimed[rec['mountPoint']]
            if not why:
                source = rec['server'] + ('@tcp:' if rec['fsType'] == 'lustre' else ':') + rec['exportPath']
                ok = '\t'.join(['ok', srv, name, source, rec['mountPoint'], fstab_line(rec, forced(rec['options'], extra))])
        except Exception as e:  # any error in one record skips that record only
            why = why_failed(e)
        if why:
            print('\t'.join(['bad', srv, name, why.replace('\t', ' ').replace('\n', ' ')]))
            continue
        claimed[rec['mountPoint']] = srv
        print(ok)

def walk(mp):
    """The node check just before mount: prints the directories to make, one a line; exit 3 with the reason."""
    try:
        why, missing = path_problem_on_node(mp)
    except Exception as e:  # e.g. an OSError from lstat: reported for this record, the others go on
        why, missing = 'mountPoint ' + q(mp) + ' ' + why_failed(e), []
    if why:
        print(why)
        sys.exit(3)
    print('\n'.join(missing))

if sys.argv[1] == 'walk':
    walk(sys.argv[2])
else:
    check(*sys.argv[2:7])
PYTHON

usage() {
  sed -n '/^# Usage:/,/^# disappeared/p' "$0" >&2
  exit 1
}

valid_name() { [[ $1 =~ ^[A-Za-z0-9_.-]{1,64}$ ]]; }

# A comma list of CIDRs, each a canonical dotted quad with a prefix of 1-32 bits.
valid_cidrs() {
  local cidr rest=$1
  [[ -n $rest && $rest != *, ]] || return 1
  while [[ -n $rest ]]; do
    cidr=${rest%%,*}
    [[ $cidr =~ $CIDR_RE ]] || return 1
    [[ $rest == *,* ]] && rest=${rest#*,} || rest=''
  done
}

# A comma list of mount roots: absolute paths of [A-Za-z0-9_.-] segments, none "." or "..", none of them /, a
# system directory or below one.
valid_roots() {
  local root rest=$1 d
  [[ -n $rest && $rest != *, ]] || return 1
  while [[ -n $rest ]]; do
    root=${rest%%,*}
    [[ $root =~ ^(/[A-Za-z0-9_.-]+)+$ && /$root/ != */./* && /$root/ != */../* ]] || return 1
    for d in $SYSTEM_DIRECTORIES; do
      [[ $root != "$d" && $root != "$d"/* ]] || return 1
    done
    [[ $rest == *,* ]] && rest=${rest#*,} || rest=''
  done
}

parse_args() {
  while (($#)); do
    case $1 in
      --cluster) cluster=${2:-} && shift ;;
      --prefix) prefix=${2:-} && shift ;;
      --server) server=${2:-} && shift ;;
      --fstab) fstab=${2:-} && shift ;;
      --allowed-servers) allowed_servers=${2:-} && shift ;;
      --mount-roots) mount_roots=${2:-} && shift ;;
      --allow-home) allow_home=1 ;;
      --read-ahead-kib) read_ahead=${2:-} && shift ;;
      --no-mount) do_mount=0 ;;
      --dry-run) dry_run=1 do_mount=0 ;;
      -h | --help) usage ;;
      *) die "unknown argument '$1'; see --help" ;;
    esac
    shift
  done
  valid_name "$cluster" || die "--cluster must be 1-64 characters of A-Z a-z 0-9 _ . -, got '$cluster'"
  [[ -z $server ]] || valid_name "$server" || die "--server must be 1-64 characters of A-Z a-z 0-9 _ . -, got '$server'"
  [[ $prefix =~ ^(/[A-Za-z0-9_.-]+)+$ ]] || die "--prefix must be /-separated levels of A-Z a-z 0-9 _ . -, got '$prefix'"
  [[ -n $allowed_servers ]] ||
    die "--allowed-servers is required: the CIDRs a record's server address must lie in (e.g. the VPC's, 10.0.0.0/16); a record names the server this node mounts as root"
  valid_cidrs "$allowed_servers" ||
    die "--allowed-servers must be a comma list of IPv4 CIDRs such as 10.0.0.0/16 (no leading zeros, prefix /1-/32), got '$allowed_servers'"
  valid_roots "$mount_roots" ||
    die "--mount-roots must be a comma list of absolute directories of A-Z a-z 0-9 _ . - (no '.' or '..'), none of them /, a system directory or below one ($SYSTEM_DIRECTORIES; /home with --allow-home), got '$mount_roots'"
  ((!allow_home)) || mount_roots+=,/home
  [[ $read_ahead =~ ^(0|[1-9][0-9]{0,6})$ && $read_ahead -le $MAX_READ_AHEAD_KIB ]] ||
    die "--read-ahead-kib must be a whole number of KiB from 0 (the kernel's own read-ahead) to $MAX_READ_AHEAD_KIB, got '$read_ahead'"
  [[ -f $fstab ]] || die "--fstab '$fstab' is not a file"
  [[ $attempts =~ ^[1-9][0-9]*$ && $retry_delay =~ ^[0-9]+$ ]] ||
    die "CLIENT_MOUNT_ATTEMPTS must be a whole number >= 1 and CLIENT_MOUNT_RETRY_DELAY >= 0 seconds"
}

# Makes sure the AWS CLI is on PATH: installs the distribution's package when it is missing.
ensure_aws_cli() {
  command -v aws >/dev/null && return 0
  local pm pkg ok=1
  if command -v dnf >/dev/null; then pm=dnf pkg=awscli-2
  elif command -v yum >/dev/null; then pm=yum pkg=awscli
  elif command -v apt-get >/dev/null; then pm=apt-get pkg=awscli
  else die "no AWS CLI (aws) to read the mount configs with, and no dnf, yum or apt-get to install one; install the AWS CLI and re-run"; fi
  ((!dry_run)) || die "no AWS CLI (aws) to read the mount configs with, and --dry-run installs nothing; install the package $pkg ($pm) and re-run"
  say "no AWS CLI (aws): installing the package $pkg with $pm"
  if [[ $pm == apt-get ]]; then
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"; } || ok=0
  else
    "$pm" install -y -q "$pkg" || ok=0
  fi
  hash -r
  local hint=''
  [[ $pm != apt-get ]] || hint=' (Ubuntu 24.04 and later have no awscli package: snap install aws-cli --classic)'
  ((ok)) || die "could not install the AWS CLI: '$pm install $pkg' failed (see above); install the AWS CLI$hint and re-run"
  command -v aws >/dev/null || die "'$pm install $pkg' succeeded, but there is still no aws command on PATH ($PATH); install the AWS CLI and re-run"
}

# Sets `region`: AWS_REGION or AWS_DEFAULT_REGION, else this instance's region from IMDSv2.
resolve_region() {
  region=${AWS_REGION:-${AWS_DEFAULT_REGION:-}}
  [[ -z $region ]] || return 0
  local imds=${AWS_EC2_METADATA_SERVICE_ENDPOINT:-http://169.254.169.254} token=''
  imds=${imds%/}
  if [[ ${AWS_EC2_METADATA_DISABLED:-} != true ]] && command -v curl >/dev/null; then
    token=$(curl -fsS --connect-timeout 2 --max-time 5 -X PUT -H 'X-aws-ec2-metadata-token-ttl-seconds: 60' \
      "$imds/latest/api/token") &&
      region=$(curl -fsS --connect-timeout 2 --max-time 5 -H "X-aws-ec2-metadata-token: $token" \
        "$imds/latest/meta-data/placement/region") || region=''
  fi
  [[ $region =~ ^[a-z0-9-]+$ ]] ||
    die "no AWS region: set AWS_REGION, or run on an EC2 instance whose metadata service (IMDSv2, read with curl) answers"
}

# Prints the GetParametersByPath result for $1 as JSON (the CLI reads every page).
fetch_records() {
  local args=(ssm get-parameters-by-path --path "$1" --recursive --output json --region "$region")
  local endpoint=${AWS_ENDPOINT_URL_SSM:-${AWS_ENDPOINT_URL:-}}
  [[ -z $endpoint ]] || args+=(--endpoint-url "$endpoint")
  AWS_PAGER='' aws "${args[@]}"
}

tag_of() { printf ' %s%s/%s' "$TAG_PREFIX" "$cluster" "$1"; }

# Fields 1 and 2 of an active fstab line ("" for comments and blank lines).
fstab_source() { [[ $1 =~ ^[[:space:]]*([^#[:space:]][^[:space:]]*)[[:space:]]+([^[:space:]]+) ]] && printf '%s' "${BASH_REMATCH[1]}"; }
fstab_target() { [[ $1 =~ ^[[:space:]]*([^#[:space:]][^[:space:]]*)[[:space:]]+([^[:space:]]+) ]] && printf '%s' "${BASH_REMATCH[2]}"; }

# Puts one record's line into the `lines` array: in place of its tagged line, or of an identical
# hand-written entry, or at the end. Returns 1 (after reporting) when another entry holds the mount point.
place_line() {
  local srv=$1 source=$2 mp=$3 line=$4 tag i own=-1 adopt=-1
  tag=$(tag_of "$srv")
  local want="$line$tag"
  for i in "${!lines[@]}"; do
    if [[ ${lines[i]} == *"$tag" ]]; then
      if ((own < 0)); then own=$i; else
        say "removed duplicate fstab line for $cluster/$srv: ${lines[i]}"
        unset 'lines[i]'
      fi
    elif [[ $(fstab_target "${lines[i]}") == "$mp" ]]; then
      if [[ $(fstab_source "${lines[i]}") == "$source" && ${lines[i]} != *" $TAG_PREFIX"* && $adopt -lt 0 ]]; then
        adopt=$i
      else
        warn "CONFLICT $mp: fstab already has '${lines[i]}'; not adding $source for $cluster/$srv. Remove that line and re-run."
        return 1
      fi
    fi
  done
  if ((own >= 0 && adopt >= 0)); then
    warn "DUPLICATE $mp: a hand-written line '${lines[adopt]}' repeats the entry of $cluster/$srv; remove it by hand."
  fi
  if ((own >= 0)); then
    [[ ${lines[own]} == "$want" ]] && say "fstab unchanged for $cluster/$srv: $line" && return 0
    say "fstab updated for $cluster/$srv: ${lines[own]} -> $want"
    lines[own]=$want
  elif ((adopt >= 0)); then
    say "fstab entry adopted for $cluster/$srv (tagged in place): $want"
    lines[adopt]=$want
  else
    say "fstab added for $cluster/$srv: $want"
    lines+=("$want")
  fi
}

report_stale() {
  local known=" $* " l srv
  for l in "${lines[@]}"; do
    [[ $l == *" $TAG_PREFIX$cluster/"* ]] || continue
    srv=${l##*" $TAG_PREFIX$cluster/"}
    [[ -z $server || $srv == "$server" ]] || continue
    [[ $known == *" $srv "* ]] && continue
    warn "STALE $cluster/$srv: its mount config $(records_path)$srv/mount is gone; left in fstab and mounted as it is: '$l'. Unmount it and delete the line by hand when it is no longer used."
  done
}

# The fstab as the `lines` array holds it.
render_lines() { ((${#lines[@]} == 0)) || printf '%s\n' "${lines[@]}"; }

records_path() { printf '%s/%s/storage/' "$prefix" "$cluster"; }

write_fstab() {
  local tmp
  tmp=$(mktemp "$fstab.XXXXXX")
  render_lines >"$tmp"
  chmod --reference="$fstab" "$tmp" && chown --reference="$fstab" "$tmp"
  cp -p "$fstab" "$fstab.storage-server.bak"
  mv -f "$tmp" "$fstab"
  [[ $fstab != /etc/fstab ]] || ! command -v systemctl >/dev/null || systemctl daemon-reload 2>/dev/null || true
}

ensure_nfs_client() {
  PATH=$PATH:/usr/sbin:/sbin command -v mount.nfs4 >/dev/null && return 0
  say "installing the NFS client"
  if command -v dnf >/dev/null; then dnf install -y -q nfs-utils
  elif command -v yum >/dev/null; then yum install -y -q nfs-utils
  elif command -v apt-get >/dev/null; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nfs-common
  else die "no NFS client (mount.nfs4) and no dnf, yum or apt-get to install one"; fi
}

# Installs the Lustre client where mount.lustre is missing; returns 1 (after saying why) when it cannot.
ensure_lustre_client() {
  local pkg
  PATH=$PATH:/usr/sbin:/sbin command -v mount.lustre >/dev/null && return 0
  if command -v dnf >/dev/null; then
    say "installing the Lustre client (dnf: lustre-client)"
    dnf install -y -q lustre-client || { say "'dnf install lustre-client' failed (see above)"; return 1; }
  elif command -v amazon-linux-extras >/dev/null; then
    say "installing the Lustre client (amazon-linux-extras: lustre)"
    amazon-linux-extras install -y lustre || { say "'amazon-linux-extras install lustre' failed (see above)"; return 1; }
  elif command -v apt-get >/dev/null; then
    pkg="lustre-client-modules-$(uname -r)"
    if ! apt-cache show "$pkg" >/dev/null 2>&1; then
      say "no package $pkg: no Lustre client is packaged for the running kernel $(uname -r) in this node's apt sources (AWS's FSx for Lustre client repository has them for the kernels it supports)"
      return 1
    fi
    say "installing the Lustre client (apt-get: $pkg)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" || { say "'apt-get install $pkg' failed (see above)"; return 1; }
  else
    say "no Lustre client (mount.lustre) and no dnf, amazon-linux-extras or apt-get to install one"
    return 1
  fi
  hash -r
  PATH=$PATH:/usr/sbin:/sbin command -v mount.lustre >/dev/null || { say "the Lustre client package is installed, but there is no mount.lustre"; return 1; }
}

# True when $1, a Lustre mount's source as the kernel shows it (<address>@tcp:/<name>), is the file system $2
# (<dns name>@tcp:/<name>): the same name, at one of the addresses the DNS name resolves to.
same_lustre() {
  local current=$1 source=$2 address
  [[ $current == *@tcp:/* && $source == *@tcp:/* && ${current#*@tcp:} == "${source#*@tcp:}" ]] || return 1
  address=${current%%@tcp:*}
  getent ahostsv4 "${source%%@tcp:*}" 2>/dev/null | awk '{ print $1 }' | grep -Fxq -- "$address"
}

# True when the mount on $1 has both forced flags (findmnt lists the per-mount flags, e.g. rw,nosuid,nodev,...).
has_forced_options() {
  local opts
  opts=,$(findmnt -rn -o OPTIONS --mountpoint "$1" 2>/dev/null | tail -n 1 || true),
  [[ $opts == *,nosuid,* && $opts == *,nodev,* ]]
}

# The options (field 4) of fstab line $1.
fstab_options() { local f1 f2 f3 opts rest; read -r f1 f2 f3 opts rest <<<"$1"; printf '%s' "$opts"; }
has_nconnect() { [[ ,$(fstab_options "$1"), == *,nconnect=* ]]; }
# $1 (an options list, or an fstab line's options field) without nconnect=N.
options_without_nconnect() {
  local o kept=() parts
  IFS=, read -ra parts <<<"$1"
  for o in "${parts[@]}"; do [[ $o == nconnect=* ]] || kept+=("$o"); done
  local IFS=,
  printf '%s' "${kept[*]}"
}
line_without_nconnect() {
  local f1 f2 f3 opts rest
  read -r f1 f2 f3 opts rest <<<"$1"
  printf '%s %s %s %s %s' "$f1" "$f2" "$f3" "$(options_without_nconnect "$opts")" "$rest"
}

# True unless this kernel refuses nconnect (the header says how it is found out, once a run): an NFS mount already
# showing nconnect= in the mount table (field 3 after the "-" separator of /proc/self/mountinfo), else a probe mount
# of $1, an NFS record's source, with the options of its fstab line $2. Sets nconnect_why when it refuses.
nconnect_ok() {
  if [[ $nconnect_state == unknown ]]; then
    if awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) ~ /^nfs4?$/ && ("," $(i + 3) ",") ~ /,nconnect=[0-9]+,/) found = 1; break } }
        END { exit !found }' "$MOUNTINFO" 2>/dev/null; then
      nconnect_state=yes
    else
      nconnect_probe "$1" "$(fstab_options "$2")"
    fi
  fi
  [[ $nconnect_state != no ]]
}

# Mounts $1 with options $2 on a private temporary directory (mode 0700, made by mktemp) and unmounts it; retry=0:
# mount.nfs tries once. Prints mount's output; returns its status.
probe_mount() {
  local dir rc=0
  dir=$(mktemp -d "${TMPDIR:-/tmp}/storage-server-nconnect.XXXXXX") || return 1
  mount -t nfs4 -o "$2,retry=0" -- "$1" "$dir" </dev/null 2>&1 || rc=$?
  if ((rc == 0)); then umount -- "$dir" 2>/dev/null || umount -l -- "$dir" 2>/dev/null || true; fi
  rmdir -- "$dir" 2>/dev/null || true
  return "$rc"
}

# Sets nconnect_state (and nconnect_why) by mounting $1 with options $2, which have nconnect=, on a temporary directory.
nconnect_probe() {
  local source=$1 opts=$2 out rc=0 out2 rc2=0
  nconnect_state=yes
  # stdin is the records' loop (main): a package manager must not read it.
  ensure_nfs_client </dev/null
  out=$(probe_mount "$source" "$opts") || rc=$?
  # Mounted, or failed after the kernel parsed the options (an unreachable server, a refused export): nconnect is known.
  [[ $rc == 32 && $out == *'incorrect mount option'* ]] || return 0
  out2=$(probe_mount "$source" "$(options_without_nconnect "$opts")") || rc2=$?
  if [[ $rc2 == 32 && $out2 == *'incorrect mount option'* ]]; then
    say "nconnect kept: $source is refused with and without it ($(head -n 1 <<<"$out")), so nconnect is not the cause"
    return 0
  fi
  nconnect_state=no
  nconnect_why="this kernel ($(uname -r)) refuses the option: mount.nfs exit 32, '$(head -n 1 <<<"$out")', and $source is not refused without it"
}

# Says so when the NFS mount on $1 was asked for nconnect and the kernel shows none (the super options in
# /proc/self/mountinfo): a mount joins the connections of an earlier mount of the same server (NFSv4.1 finds the same
# server behind other addresses too), whose count the first mount fixed [SUSE-KB].
report_nconnect() {
  local opts
  opts=$(awk -v mp="$1" '$5 == mp { for (i = 7; i < NF; i++) if ($i == "-") { o = $(i + 3); break } } END { print o }' \
    "$MOUNTINFO" 2>/dev/null || true)
  [[ -n $opts && ,$opts, != *,nconnect=* ]] || return 0
  say "nconnect not in effect on $1: the kernel shares the connections of an earlier mount of the same server made without it; it takes effect once every mount of that server is unmounted (a reboot at the latest)"
}

# The udev rule (and nfsrahead's [nfsrahead] section) that set the NFS read-ahead at every later NFS mount (see the
# header); with --read-ahead-kib 0, both removed. Each file is rewritten only when its text differs.
configure_read_ahead() {
  local awk_path rule conf
  if ((read_ahead == 0)); then
    local f
    for f in "$READ_AHEAD_RULE" "$READ_AHEAD_CONF"; do
      [[ -e $f ]] || continue
      if rm -f -- "$f"; then say "read-ahead left to the kernel (--read-ahead-kib 0): removed $f"
      else warn "READ-AHEAD cannot remove $f (see above); later NFS mounts still get its read-ahead"; fi
      [[ $f != "$READ_AHEAD_RULE" ]] || reload_udev
    done
    return 0
  fi
  awk_path=$(command -v awk || true)
  if [[ ! $awk_path =~ ^(/[A-Za-z0-9._-]+)+$ ]]; then
    warn "READ-AHEAD no awk on PATH for the udev rule; later NFS mounts keep the kernel's read-ahead (this run's are set)"
    return 0
  fi
  # $kernel is the bdi's name, <major>:<minor>; udev reads $$ as $, so awk sees $4 (the DEV column).
  # shellcheck disable=SC2016 # $kernel and $$4 are udev's and awk's, not the shell's
  rule=$(printf '%s\n' \
    '# Written by storage-server client-mount.sh (--read-ahead-kib; docs/design.md, section 9): the read-ahead of every' \
    "# NFS mount, as amazon-ec2-utils' 53-ec2-read-ahead-kb.rules sets it. Named to run after nfs-utils' 99-nfs.rules." &&
    printf 'SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="%s -v bdi=$kernel '\''BEGIN{ret=1} {if ($$4 == bdi) {ret=0}} END{exit ret}'\'' /proc/fs/nfsfs/volumes", ATTR{read_ahead_kb}="%s"\n' \
      "$awk_path" "$read_ahead")
  conf=$(printf '%s\n' \
    '# Written by storage-server client-mount.sh (--read-ahead-kib): nfsrahead (nfs-utils 2.6.2 and later, 99-nfs.rules)' \
    '# would otherwise set 128 KiB at every NFS mount.' \
    '[nfsrahead]' "nfs=$read_ahead" "nfs4=$read_ahead")
  if write_if_changed "$READ_AHEAD_RULE" "$rule"; then reload_udev; fi
  write_if_changed "$READ_AHEAD_CONF" "$conf" || true
}

# Writes $2 and a newline to $1 (0644, its directory made) when it holds something else; true when it wrote.
write_if_changed() {
  [[ ! -f $1 || $(cat -- "$1") != "$2" ]] || return 1
  if { [[ -d $(dirname -- "$1") ]] || mkdir -p -- "$(dirname -- "$1")"; } && printf '%s\n' "$2" >"$1.new" && chmod 0644 "$1.new" && mv -f -- "$1.new" "$1"; then
    say "read-ahead for later NFS mounts: wrote $1 ($read_ahead KiB)"
    return 0
  fi
  warn "READ-AHEAD cannot write $1 (see above); later NFS mounts may keep the kernel's read-ahead"
  return 1
}

reload_udev() {
  [[ $READ_AHEAD_RULE == /etc/udev/* ]] && command -v udevadm >/dev/null || return 0
  udevadm control --reload 2>/dev/null || true
}

# Sets the read-ahead of the NFS mount on $1 now: its bdi is /sys/class/bdi/<major>:<minor>, the numbers from field 3
# of /proc/self/mountinfo (the last mount on $1: the one on top).
apply_read_ahead() {
  local mp=$1 dev file now
  dev=$(awk -v mp="$mp" '$5 == mp { dev = $3 } END { print dev }' "$MOUNTINFO" 2>/dev/null || true)
  if [[ ! $dev =~ ^[0-9]+:[0-9]+$ ]]; then
    say "read-ahead of $mp not set now: no mount on it in $MOUNTINFO (the udev rule sets it at its next mount)"
    return 0
  fi
  file=$SYSFS/class/bdi/$dev/read_ahead_kb
  now=$(cat -- "$file" 2>/dev/null || true)
  [[ $now != "$read_ahead" ]] || return 0
  if printf '%s\n' "$read_ahead" 2>/dev/null >"$file"; then
    say "read-ahead of $mp (bdi $dev) set to $read_ahead KiB (was ${now:-unknown} KiB)"
  else
    warn "READ-AHEAD cannot write $file for $mp; it keeps ${now:-its} KiB"
  fi
}

# Checks the path to $1 again, just before the mount (path_problem_on_node in the python above: no symbolic
# link, every directory on the way root's and writable by no one else), and makes the missing directories one
# by one, 0755, as root; mkdir without -p fails if anything appeared there meanwhile. Returns 1 (after
# reporting) when the path is unsafe or a directory cannot be made.
prepare_mount_point() {
  local srv=$1 source=$2 mp=$3 out d
  if ! out=$(python3 -c "$PY" walk "$mp" 2>&1); then
    warn "UNSAFE-PATH $(head -n 1 <<<"$out"); not mounting $source for $cluster/$srv. Fix the directory and re-run."
    return 1
  fi
  while IFS= read -r d; do
    [[ -n $d ]] || continue
    if ! mkdir -m 0755 -- "$d"; then
      warn "MKDIR-FAILED $d for $cluster/$srv (see above); not mounting $source on $mp."
      return 1
    fi
  done <<<"$out"
}

mount_one() {
  local srv=$1 source=$2 mp=$3 current n
  prepare_mount_point "$srv" "$source" "$mp" || return 0
  current=$(findmnt -rn -o SOURCE --mountpoint "$mp" 2>/dev/null | tail -n 1 || true)
  if [[ $current == "$source" ]] || same_lustre "$current" "$source"; then
    if has_forced_options "$mp"; then say "already mounted: $source on $mp"; return 0; fi
    # Mounted before nosuid,nodev were forced (or by hand without them). A bind remount sets the two
    # per-mount flags in place, keeping the others (VFS-OPTIONS), without unmounting the data in use; an
    # NFS remount would go through mount.nfs, which refuses options that differ from the mount's. No
    # helper (-i) and no fstab options (--options-mode ignore): only these flags reach mount(2).
    local vfs
    vfs=$(findmnt -rn -o VFS-OPTIONS --mountpoint "$mp" 2>/dev/null | tail -n 1 || true)
    [[ $vfs =~ ^[a-z,]*$ ]] || vfs=''
    if mount -i --options-mode ignore -o "remount,bind,${vfs:+$vfs,}$FORCED_OPTIONS" -- "$mp" &&
      has_forced_options "$mp"; then
      say "remounted $source on $mp with $FORCED_OPTIONS"
    else
      warn "NOT-NOSUID $source on $mp is mounted without $FORCED_OPTIONS and remounting it with them failed; unmount it when idle and re-run."
    fi
    return 0
  fi
  if [[ -n $current ]]; then
    warn "MOUNTED-ELSEWHERE $mp holds $current, the config of $cluster/$srv says $source; not remounting a data mount in use. Unmount it when idle and re-run."
    return 0
  fi
  for ((n = 1; n <= attempts; n++)); do
    if mount -T "$fstab" -- "$mp"; then say "mounted $source on $mp"; return 0; fi
    ((n == attempts)) || sleep "$retry_delay"
  done
  warn "MOUNT-FAILED $source on $mp after $attempts attempts; the fstab line stays, the next run retries."
}

main() {
  parse_args "$@"
  if ((!dry_run)) && command -v flock >/dev/null; then
    mkdir -p "$(dirname "$lock_file")"
    exec 9>>"$lock_file"
    flock -w 600 9 || die "another client-mount run holds $lock_file"
  fi
  local path raw parsed kind srv name a b c region
  path=$(records_path)
  [[ -z $server ]] || path+="$server/"
  command -v python3 >/dev/null || die "python3 is needed to parse the mount records; install it"
  ensure_aws_cli
  resolve_region
  raw=$(fetch_records "$path") || die "cannot read the mount configs under $path (see above)"
  parsed=$(python3 -c "$PY" check "$(records_path)" "$server" "$allowed_servers" "$mount_roots" "$FORCED_OPTIONS" \
    <<<"$raw") || die "cannot parse the answer for $path"
  mapfile -t lines <"$fstab"
  local known=() mounts=() lustre=unknown nfs=0 nc
  while IFS=$'\t' read -r kind srv name a b c; do
    [[ -n $kind ]] || continue
    known+=("$srv")
    if [[ $kind == ok && $a == *@tcp:* ]] && ((do_mount && !dry_run)); then
      # Lustre: the client first, so that no line is written that every boot would fail to mount.
      [[ $lustre != unknown ]] || { if ensure_lustre_client; then lustre=yes; else lustre=no; fi; }
      if [[ $lustre == no ]]; then
        warn "NO-LUSTRE-CLIENT $name: $a on $b needs the Lustre client, which this node lacks and could not install (kernel $(uname -r), see above); record skipped: nothing of it is written or mounted"
        continue
      fi
    fi
    if [[ $kind == ok && $a != *@tcp:* ]] && has_nconnect "$c" && ((do_mount && !dry_run)) && ! nconnect_ok "$a" "$c"; then
      say "nconnect dropped for $cluster/$srv: $nconnect_why; its fstab line and mount have no nconnect"
      c=$(line_without_nconnect "$c")
    fi
    if [[ $kind == bad ]]; then
      # A refused record leaves no trace: no directory, no fstab line, no mount (a line it had before stays).
      warn "$name: $a; record skipped: nothing of it is written or mounted"
    elif place_line "$srv" "$a" "$b" "$c"; then
      [[ $a == *@tcp:* ]] || nfs=1
      nc=0
      ! has_nconnect "$c" || nc=1
      mounts+=("$srv"$'\t'"$a"$'\t'"$b"$'\t'"$nc")
    fi
  done <<<"$parsed"
  ((${#known[@]})) || say "no mount config under $path"
  report_stale "${known[@]}"
  local before
  before=$(cat "$fstab")
  if [[ $before != "$(render_lines)" ]]; then
    if ((dry_run)); then say "dry run: fstab not written"; else write_fstab; fi
  fi
  if ((dry_run)); then
    printf '%s\n' '--- fstab after this run ---'
    render_lines
    printf '%s\n' '--- end ---'
  fi
  if ((do_mount && ${#mounts[@]})); then
    ((!nfs)) || ensure_nfs_client
    local m
    for m in "${mounts[@]}"; do
      IFS=$'\t' read -r srv a b nc <<<"$m"
      mount_one "$srv" "$a" "$b"
      [[ $a == *@tcp:* ]] || ((read_ahead == 0)) || apply_read_ahead "$b"
      ((!nc)) || report_nconnect "$b"
    done
  fi
  if ((!dry_run && (nfs || read_ahead == 0))); then configure_read_ahead; fi
  if ((attention)); then say "done; something above needs attention"; exit 2; fi
  say "done"
}

main "$@"
