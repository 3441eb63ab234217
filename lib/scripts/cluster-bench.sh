#!/usr/bin/env bash
# cluster-bench: one cluster node's part of the cluster benchmark (npm run bench:cluster sends the stack's
# benchmark document to N tagged nodes at once, and that document runs this). On the mounted storage it writes
# SIZE MiB sequentially in 1 MiB records with direct I/O (fio, installed if missing), flushed at the end, then
# reads them back the same way, and prints one JSON line with its figures and what its mount is (the file system type
# and, for NFS, its connections: npm run bench:cluster puts the node's figures beside one client's ceiling, which
# they bound: lib/sizing/client-ceiling.ts). Its files live under
# <mount>/.storage-bench/<run>/<host> and are removed on every exit, an interrupted run included. The server's
# bootstrap makes .storage-bench (1777, like /tmp): the nodes run this as root, which the export squashes.
#
# Usage: cluster-bench --mount DIR --size-mib MIB --run ID
set -euo pipefail
export LC_ALL=C

die() {
  echo "cluster-bench: ERROR: $*" >&2
  exit 1
}

MOUNT="" SIZE="" RUN=""
while (($#)); do
  case $1 in
    --mount) MOUNT=${2:-} && shift 2 ;;
    --size-mib) SIZE=${2:-} && shift 2 ;;
    --run) RUN=${2:-} && shift 2 ;;
    *) die "unexpected argument '$1' (usage: cluster-bench --mount DIR --size-mib MIB --run ID)" ;;
  esac
done
[[ $MOUNT =~ ^(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$ && ! $MOUNT =~ /\.\.(/|$) ]] || die "--mount must be an absolute path, got '$MOUNT'"
[[ $SIZE =~ ^[1-9][0-9]{0,7}$ ]] || die "--size-mib must be a whole number of MiB from 1 to 99999999, got '$SIZE'"
[[ $RUN =~ ^[A-Za-z0-9-]{1,64}$ ]] || die "--run must be 1-64 characters of A-Z a-z 0-9 -, got '$RUN'"
mountpoint -q "$MOUNT" || die "$MOUNT is not a mount point: the storage is not mounted on this node"
TOP=$MOUNT/.storage-bench
# An NFS server's bootstrap makes it; on FSx for Lustre (root not squashed) the first node does.
[[ -e $TOP || -L $TOP ]] || mkdir -m 1777 "$TOP" 2>/dev/null || true
[[ -d $TOP && ! -L $TOP ]] ||
  die "$TOP is missing and cannot be made here: the server's bootstrap makes it (a server of an older version has none)"

# The mount as the kernel has it: nconnect=N among its options when the mount asked for connections (absent, one).
FS_TYPE=unknown NCONNECT=null
if mount_info=$(findmnt -f -n -o FSTYPE,OPTIONS --mountpoint "$MOUNT" 2>/dev/null); then
  read -r fs_type fs_options <<<"$mount_info"
  [[ $fs_type =~ ^[a-z0-9._-]{1,32}$ ]] && FS_TYPE=$fs_type
  if [[ $FS_TYPE == nfs || $FS_TYPE == nfs4 ]]; then
    NCONNECT=1
    [[ ,$fs_options, =~ ,nconnect=([1-9][0-9]?), ]] && NCONNECT=${BASH_REMATCH[1]}
  fi
fi

if ! command -v fio >/dev/null; then
  echo "cluster-bench: installing fio" >&2
  if command -v dnf >/dev/null; then
    dnf install -y -q fio >&2
  elif command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q fio >&2
  fi
  command -v fio >/dev/null || die "fio is missing and could not be installed"
fi

HOST=$(hostname -s)
[[ $HOST =~ ^[A-Za-z0-9._-]+$ ]] || HOST=node-$$
DIR=$TOP/$RUN/$HOST
# Stops a fio still running, removes this node's files, then the run's directory if nothing else is left in it
# (other nodes of the same run may still be writing theirs). .storage-bench itself stays.
FIO_PID=""
cleanup() {
  if [[ -n $FIO_PID ]]; then kill "$FIO_PID" 2>/dev/null || true; wait "$FIO_PID" 2>/dev/null || true; fi
  rm -rf -- "$DIR"
  rmdir -- "$TOP/$RUN" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# What an earlier run on this node left (killed outright, a trap cannot run): its own files only.
for stale in "$TOP"/*/"$HOST"; do
  [[ -d $stale && ! -L $stale && $stale != "$DIR" ]] || continue
  echo "cluster-bench: removing $stale, left by an earlier run" >&2
  rm -rf -- "$stale"
  rmdir -- "${stale%/*}" 2>/dev/null || true
done
mkdir -p -- "$DIR"

# run_fio <rw> [extra]: fio in the background, waited for, so that a signal is handled at once (bash runs a trap
# only between commands); its JSON report in $DIR/<rw>.json.
run_fio() {
  fio --name="$1" --rw="$1" --bs=1M --direct=1 --ioengine=psync --size="${SIZE}M" --filename="$DIR/data" \
    ${2:+"$2"} --output-format=json --output="$DIR/$1.json" >/dev/null &
  FIO_PID=$!
  wait "$FIO_PID"
  FIO_PID=""
}
# The bytes and runtime (ms) of the job's direction, from fio's JSON report.
figures() {
  python3 -c 'import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0][sys.argv[2]]
print(job["io_bytes"], job["runtime"])' "$DIR/$1.json" "$1"
}
run_fio write --end_fsync=1
run_fio read
read -r write_bytes write_ms <<<"$(figures write)"
read -r read_bytes read_ms <<<"$(figures read)"
[[ $write_bytes =~ ^[0-9]+$ && $write_ms =~ ^[0-9]+$ && $read_bytes =~ ^[0-9]+$ && $read_ms =~ ^[0-9]+$ ]] ||
  die "fio's report has no figures for this run"
printf '{"host":"%s","run":"%s","sizeMiB":%s,"writeBytes":%s,"writeMs":%s,"readBytes":%s,"readMs":%s,"fsType":"%s","nconnect":%s}\n' \
  "$HOST" "$RUN" "$SIZE" "$write_bytes" "$write_ms" "$read_bytes" "$read_ms" "$FS_TYPE" "$NCONNECT"
