#!/usr/bin/env bash
# Mounts the storage servers of an HPC cluster on this node (NFS servers, FSx for Lustre and FSx for OpenZFS file
# systems), from the mount configs the StorageServer registration keeps in SSM Parameter Store (docs/design.md, section 6):
#   <prefix>/<cluster>/storage/<server>/mount = {"server","exportPath","mountPoint","fsType":"nfs4"|"lustre"|"efs","options","fstab"[,"backend"]}
# Run by the client-mount SSM document (State Manager: at a node's first boot and on a schedule) or by hand.
#
# Usage: client-mount.sh --cluster NAME --allowed-servers CIDR[,CIDR...] [--mount-roots DIR[,DIR...]] [--allow-home]
#                        [--read-ahead-kib N] [--ready-timeout-minutes N] [--prefix /storage-server] [--server NAME]
#                        [--fstab FILE] [--no-mount] [--dry-run]
#   --allowed-servers  required: the addresses a record's server may have (the VPC's CIDR); 1-32 prefix bits
#   --mount-roots  the directories a record may mount on or below (default /data,/scratch,/shared,/fsx);
#               never /, one of NAMED_DIRECTORIES (/opt ...; below one is allowed), a system
#               directory (SYSTEM_DIRECTORIES) or one below it
#   --allow-home  add /home to the mount roots (home directories on NFS)
#   --read-ahead-kib  NFS read-ahead, KiB, 0-1048576 (default 15360); 0 leaves the kernel's own (see below)
#   --ready-timeout-minutes  how long the first run of a boot retries failed mounts, 1-2865 (default 10; see below)
#   --server    only this server's config (default: every server of the cluster)
#   --fstab     the fstab to edit (default /etc/fstab); mounts use it too (mount -T)
#   --no-mount  edit the fstab, but create no directory and mount nothing
#   --dry-run   change nothing; print the report and the fstab that would be written
# Exit status: 0 every config is in fstab and mounted; 1 nothing done (bad usage, records unreadable);
# 2 done, but something needs a person: a record refused or failing in any way, a conflicting fstab line, a
# config that disappeared without a tombstone, a mount that failed, or a node not ready (NOT-READY). Each is reported on one line starting ATTENTION, with the
# parameter or fstab entry; every other record is still written and mounted.
#
# The records are input from whoever can write the parameters, and this script runs as root on every
# node, so each record is checked against a strict grammar before anything of it is used (python3 below):
# the server is a canonical IPv4 address inside --allowed-servers, or an FSx DNS name
# (fs-<id>.fsx.<region>.amazonaws.com) every address of which (getent ahostsv4) lies inside --allowed-servers: for
# fsType "lustre" (FSx for Lustre, with exportPath "/<mount name>", 3-8 lower-case letters and digits) and for an
# "nfs4" record of backend "fsx-openzfs" (FSx for OpenZFS, mounted over NFS by that name and by nothing else), or
# likewise an EFS DNS name (fs-<id>.efs.<region>.amazonaws.com) for backend "efs"; the backend, when a record names
# one (records written before FSx for OpenZFS do not), is one of ebs, instance-store, fsx-lustre, fsx-openzfs, efs,
# nfs and fits the fsType (fsx-lustre "lustre", the others "nfs4"); exportPath and mountPoint are absolute
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
# more harm than a stale line a person removes by hand. Unless the server was removed: the registration's
# Delete leaves a tombstone <prefix>/<cluster>/removed/<server> = {"name","removedAt","removedBy"} (a
# replacement's does not: docs/design.md, section 9), read with GetParameters for the vanished servers only.
# Then the mount is unmounted (umount; when busy umount -l, naming the processes fuser -m finds) and the
# line dropped; its directory stays. Untagged lines and mounts of something else are never touched.
#
# Readiness (docs/design.md, section 9). A run that mounts writes /etc/storage-server/expected/<cluster>
# ("<server> <mount point>" a line: every record it read, "-" for one that cannot be mounted), the unit
# storage-server-mounts.target and its drop-in storage-server-mounts.target.d/<cluster>.conf with
# RequiresMountsFor= each expected mount point, and starts the target when every expected mount of every
# cluster is in /proc/self/mountinfo; a scheduler's daemon is ordered after it (README, "Node readiness").
# The first run of a boot (the target not active) tries each mount once, bounded, then retries the failed
# ones with backoff (retry delay doubling to 60 s) for --ready-timeout-minutes, then prints
# "storage-server: ATTENTION NOT-READY <cluster>/<server> ..." and exits 2. Later runs try as before and
# never stop the target, which would stop what is ordered after it. Without systemd there is no target.
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
# EFS over TLS. A record of fsType "efs" (backend efs, options with tls) is mounted by amazon-efs-utils' mount helper,
# mount.efs, which runs the TLS tunnel and mounts its local end, 127.0.0.1:<path> (docs/client-mount.md). It does not
# install it (it brings stunnel or efs-proxy and a watchdog service: the node's owner's choice); where mount.efs is
# missing the record is reported (ATTENTION NO-EFS-UTILS, saying how to install it) and skipped, by every run: never
# mounted without TLS, and no fstab line that would fail at every boot.
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
# Mount roots refused at and below these, and at these but not below (the FHS and file-hierarchy(7):
# docs/sources/file-hierarchy.md; lambda/value-check/mounts.ts keeps the same lists, a test compares them). A
# record's mount point is judged by the allowlist of roots and by the package database, not by these lists.
readonly SYSTEM_DIRECTORIES='/bin /boot /dev /efi /etc /home /lib /lib32 /lib64 /libx32 /proc /root /run /sbin /sys /tmp /usr /var'
readonly NAMED_DIRECTORIES='/media /mnt /opt /srv'
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
# Readiness: the target, where units and the expected mounts go, sd_booted's directory (tests point these elsewhere).
readonly TARGET=storage-server-mounts.target UNIT_DIR=${CLIENT_MOUNT_UNIT_DIR:-/etc/systemd/system}
readonly EXPECTED_DIR=${CLIENT_MOUNT_EXPECTED_DIR:-/etc/storage-server/expected} SYSTEMD_RUN=${CLIENT_MOUNT_SYSTEMD_RUN:-/run/systemd/system}
# The first run's bound, minutes: the default and the largest (lib/client-mount/document.ts: MAX_READY_TIMEOUT_MINUTES).
readonly DEFAULT_READY_MINUTES=10 MAX_READY_MINUTES=2865
cluster='' prefix='/storage-server' server='' fstab='/etc/fstab' do_mount=1 dry_run=0
allowed_servers='' allow_home=0 mount_roots=$DEFAULT_MOUNT_ROOTS read_ahead=$DEFAULT_READ_AHEAD_KIB
ready_minutes=$DEFAULT_READY_MINUTES first=0 deadline=0 bound=0 retry=() expect=()
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
PY=$(<"$(dirname -- "${BASH_SOURCE[0]}")/client_mount.py")
# The tombstones' reader: a GetParameters answer on stdin, the removed path as its argument (client-mount-ready.sh).
PY_REMOVED=$(<"$(dirname -- "${BASH_SOURCE[0]}")/client_mount_removed.py")

. "$(dirname -- "${BASH_SOURCE[0]}")/client-mount-args.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/client-mount-aws.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/client-mount-fstab.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/client-mount-clients.sh"

# True when $1, a Lustre mount's source as the kernel shows it (<address>@tcp:/<name>), is the file system $2
# (<dns name>@tcp:/<name>): the same name, at one of the addresses the DNS name resolves to.
same_lustre() {
  local current=$1 source=$2 address
  [[ $current == *@tcp:/* && $source == *@tcp:/* && ${current#*@tcp:} == "${source#*@tcp:}" ]] || return 1
  address=${current%%@tcp:*}
  getent ahostsv4 "${source%%@tcp:*}" 2>/dev/null | awk '{ print $1 }' | grep -Fxq -- "$address"
}

# True when $1, the source the kernel shows, is the EFS record source $2 mounted over TLS: mount.efs mounts the local
# end of its tunnel, 127.0.0.1:<path> (efs-utils' mount_nfs).
same_efs_tls() { [[ $2 == *.efs.* && $1 == "127.0.0.1:${2#*:}" ]]; }

# True when the mount on $1 has both forced flags (findmnt lists the per-mount flags, e.g. rw,nosuid,nodev,...).
has_forced_options() {
  local opts
  opts=,$(findmnt -rn -o OPTIONS --mountpoint "$1" 2>/dev/null | tail -n 1 || true),
  [[ $opts == *,nosuid,* && $opts == *,nodev,* ]]
}

. "$(dirname -- "${BASH_SOURCE[0]}")/client-mount-nconnect.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/client-mount-read-ahead.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/client-mount-ready.sh"

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

# Mounts one record; returns 1 when the mount failed on a first run, which retries it (become_ready).
mount_one() {
  local srv=$1 source=$2 mp=$3 current n
  prepare_mount_point "$srv" "$source" "$mp" || return 0
  current=$(findmnt -rn -o SOURCE --mountpoint "$mp" 2>/dev/null | tail -n 1 || true)
  if [[ $current == "$source" ]] || same_lustre "$current" "$source" || same_efs_tls "$current" "$source"; then
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
  local tries=$attempts
  ((!first)) || tries=1
  for ((n = 1; n <= tries; n++)); do
    if try_mount "$mp"; then say "mounted $source on $mp"; return 0; fi
    ((n == tries)) || sleep "$retry_delay"
  done
  ((!first)) || return 1
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
  bound=${CLIENT_MOUNT_READY_SECONDS:-$((ready_minutes * 60))}
  deadline=$((SECONDS + bound))
  if ((do_mount && !dry_run)) && have_systemd && ! systemctl is-active --quiet "$TARGET"; then first=1; fi
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
        expect+=("$srv -")
        continue
      fi
    fi
    if [[ $kind == ok && $c =~ ^[^\ ]+\ [^\ ]+\ efs\  ]] && ! command -v mount.efs >/dev/null && [[ ! -x /sbin/mount.efs ]]; then
      warn "NO-EFS-UTILS $cluster/$srv: $a on $b is EFS over TLS, which needs amazon-efs-utils' mount.efs, missing on this node. Install it (Amazon Linux: dnf or yum install -y amazon-efs-utils; other distributions: build it from source, github.com/aws/efs-utils) and re-run; record skipped: nothing of it is written or mounted, never without TLS"
      continue
    fi
    if [[ $kind == ok && $a != *@tcp:* ]] && has_nconnect "$c" && ((do_mount && !dry_run)) && ! nconnect_ok "$a" "$c"; then
      say "nconnect dropped for $cluster/$srv: $nconnect_why; its fstab line and mount have no nconnect"
      c=$(line_without_nconnect "$c")
    fi
    if [[ $kind == bad ]]; then
      # A refused record leaves no trace: no directory, no fstab line, no mount (a line it had before stays).
      warn "$name: $a; record skipped: nothing of it is written or mounted"
      expect+=("$srv -")
    elif ! place_line "$srv" "$a" "$b" "$c"; then
      expect+=("$srv -")
    else
      expect+=("$srv $b")
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
      mount_one "$srv" "$a" "$b" || retry+=("$m")
      [[ $a == *@tcp:* ]] || ((read_ahead == 0)) || apply_read_ahead "$b"
      ((!nc)) || report_nconnect "$b"
    done
  fi
  if ((!dry_run && (nfs || read_ahead == 0))); then configure_read_ahead; fi
  ((!do_mount || dry_run)) || become_ready
  if ((attention)); then say "done; something above needs attention"; exit 2; fi
  say "done"
}

main "$@"
