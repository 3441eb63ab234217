#!/usr/bin/env bash
# storage-copy: one cluster node's part of `npm run copy`, the safe path of a change the update guard refuses (a second
# server, and a copy). On a node that has both servers mounted it copies the source mount point into the target's in
# parallel rsync streams, one per top-level entry, then once more over the whole tree in one rsync, which keeps the hard
# links the streams split and catches the rest, then verifies: an rsync dry run with --checksum must list nothing. It
# prints one JSON line. Run again, it copies only what changed. It never deletes: not on the source, which rsync only
# reads, and not on the target, where a file removed from the source since the last run stays.
#
# Usage: storage-copy --source DIR --target DIR --from CLUSTER/SERVER [--mode copy|verify] [--streams N]
#                     [--allow-foreign yes|no]
set -euo pipefail
export LC_ALL=C

die() {
  echo "storage-copy: ERROR: $*" >&2
  exit 1
}

USAGE='storage-copy --source DIR --target DIR --from CLUSTER/SERVER [--mode copy|verify] [--streams N] [--allow-foreign yes|no]'
SOURCE="" TARGET="" FROM="" MODE=copy STREAMS=8 FOREIGN=no
while (($#)); do
  case $1 in
    --source) SOURCE=${2:-} && shift 2 ;;
    --target) TARGET=${2:-} && shift 2 ;;
    --from) FROM=${2:-} && shift 2 ;;
    --mode) MODE=${2:-} && shift 2 ;;
    --streams) STREAMS=${2:-} && shift 2 ;;
    --allow-foreign) FOREIGN=${2:-} && shift 2 ;;
    *) die "unexpected argument '$1' (usage: $USAGE)" ;;
  esac
done
path_ok() { [[ $1 =~ ^(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$ && ! $1 =~ /\.\.(/|$) ]]; }
path_ok "$SOURCE" || die "--source must be an absolute path of [A-Za-z0-9._-] segments, got '$SOURCE'"
path_ok "$TARGET" || die "--target must be an absolute path of [A-Za-z0-9._-] segments, got '$TARGET'"
[[ $FROM =~ ^[A-Za-z0-9_.-]{1,64}/[A-Za-z0-9_.-]{1,64}$ ]] || die "--from must be CLUSTER/SERVER, got '$FROM'"
[[ $MODE == copy || $MODE == verify ]] || die "--mode must be copy or verify, got '$MODE'"
[[ $STREAMS =~ ^[1-9][0-9]?$ ]] || die "--streams must be a whole number from 1 to 99, got '$STREAMS'"
[[ $FOREIGN == yes || $FOREIGN == no ]] || die "--allow-foreign must be yes or no, got '$FOREIGN'"
# Nested mount points would copy the target into itself.
[[ $SOURCE/ != "$TARGET"/* && $TARGET/ != "$SOURCE"/* && $SOURCE != "$TARGET" ]] ||
  die "--source $SOURCE and --target $TARGET must be two mount points, neither inside the other"
mountpoint -q "$SOURCE" || die "$SOURCE is not a mount point: the source server is not mounted on this node"
mountpoint -q "$TARGET" || die "$TARGET is not a mount point: the target server is not mounted on this node"

# Installs the package of a missing command with the node's package manager (dnf on Amazon Linux, apt elsewhere).
need_command() {
  command -v "$1" >/dev/null && return 0
  echo "storage-copy: installing $2" >&2
  if command -v dnf >/dev/null; then
    dnf install -y -q "$2" >&2
  elif command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >&2
  fi
  command -v "$1" >/dev/null || die "$1 (package $2) is missing and could not be installed"
}
need_command rsync rsync

# What this run mounted, unmounted at its end; the directories only rmdir'd, never removed with what they hold.
logs="" PRIVATE="" MOUNTED=()
cleanup() {
  local d
  [[ -z $logs ]] || rm -rf "$logs"
  for d in "${MOUNTED[@]}"; do umount "$d" 2>/dev/null || umount -l "$d" 2>/dev/null || true; done
  [[ -z $PRIVATE ]] || rmdir "$PRIVATE"/* "$PRIVATE" 2>/dev/null || true
}
trap cleanup EXIT

# User extended attributes cross NFS only from version 4.2 (RFC 8276): through an older mount the source shows none,
# the target takes none, and the verification cannot see the loss. A server mounted here with an older version is
# mounted again for the run, privately, with 4.2, the source read-only. REPLY: the directory to work in.
XATTRS=true
over_v42() { # <mount point> <ro|rw> <name>
  local fstype server err
  REPLY=$1
  fstype=$(findmnt -n -o FSTYPE --mountpoint "$1" 2>/dev/null || true)
  [[ $fstype == nfs || $fstype == nfs4 ]] || return 0
  [[ ,$(findmnt -n -o OPTIONS --mountpoint "$1"), == *,vers=4.2,* ]] && return 0
  server=$(findmnt -n -o SOURCE --mountpoint "$1")
  [[ $server =~ ^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):/[A-Za-z0-9._/-]*$ ]] ||
    die "$1 is mounted from '$server', which is not host:/path"
  [[ -n $PRIVATE ]] || PRIVATE=$(mktemp -d /run/storage-copy.XXXXXX)
  mkdir "$PRIVATE/$3"
  if err=$(mount -t nfs4 -o "vers=4.2,$2,hard,timeo=600,retrans=2,nosuid,nodev" "$server" "$PRIVATE/$3" 2>&1); then
    MOUNTED+=("$PRIVATE/$3")
    REPLY=$PRIVATE/$3
  else
    XATTRS=false
    echo "storage-copy: WARNING: $server refuses an NFS 4.2 mount ($(head -c 200 <<<"$err" | tr '\n' ' ')): user" \
      "extended attributes cannot cross an older NFS version, so this run copies and verifies without them" >&2
  fi
}
over_v42 "$SOURCE" ro source
SRC=$REPLY
over_v42 "$TARGET" rw target
DST=$REPLY

# What is the servers' own and never copied: an EC2 server's state (.storage-server: nfsd's client records, which the
# target's running nfsd owns), the benchmark's directory, ext4's lost+found, and the copy's marker.
MARKER=.storage-copy
EXCLUDES=(--exclude=/.storage-server/ --exclude=/.storage-bench/ --exclude=/lost+found/ --exclude="/$MARKER")
# -aHAXS --numeric-ids: hard links, ACLs, xattrs, sparse files, and ids as numbers, since the node's names may differ.
RSYNC=(rsync -aHAXS --numeric-ids "${EXCLUDES[@]}")

# The target holds foreign data when it holds anything but what is never copied, and no marker of this source.
foreign() {
  local marker=$DST/$MARKER
  if [[ -f $marker && ! -L $marker ]]; then
    [[ $(cat "$marker") == "from $FROM" ]] && return 1
    echo "its marker $TARGET/$MARKER says '$(head -c 200 "$marker")', not 'from $FROM'"
    return 0
  fi
  local first
  first=$(find "$DST" -mindepth 1 -maxdepth 1 ! -name .storage-server ! -name .storage-bench ! -name lost+found ! -name "$MARKER" -print -quit)
  [[ -n $first ]] || return 1
  echo "it is not empty (${first#"$DST"/}) and has no marker of a copy from $FROM"
}

# An export that squashes root maps this node's root to nobody: no copy could keep owners and modes.
root_kept() {
  local probe=$DST/.storage-copy-probe.$$ ids
  rm -f "$probe"
  : 2>/dev/null >"$probe" ||
    die "root on this node cannot write on $TARGET (the export squashes root, or is read-only): see README, Moving data"
  ids=$(chown 4242:4242 "$probe" 2>/dev/null && stat -c %u:%g "$probe" || true)
  rm -f "$probe"
  [[ $ids == 4242:4242 ]] ||
    die "root on this node cannot set owners on $TARGET (the export squashes root): the copy would lose every file's owner." \
      "Mount both servers on a node their exports do not squash root for (README, Moving data)"
}

# A target that takes no user xattr (an NFS 4.2 server without RFC 8276's extension, whose Linux client then answers
# EOPNOTSUPP) would fail every rsync -X: the copy and its verification go without them, and say so. The probe is the
# copy's marker, which is never compared, so that the target's directories keep their times.
xattrs_kept() {
  local marker=$DST/$MARKER err
  [[ $XATTRS == true && -f $marker && ! -L $marker ]] || return 0
  if err=$(setfattr -n user.storage-copy -v 1 "$marker" 2>&1); then
    setfattr -x user.storage-copy "$marker" 2>/dev/null || true
  else
    XATTRS=false
    RSYNC=("${RSYNC[@]/#-aHAXS/-aHAS}")
    echo "storage-copy: WARNING: $TARGET takes no user extended attribute ($(head -c 200 <<<"$err" | tr '\n' ' ')):" \
      "this run copies and verifies without them" >&2
  fi
}

# Prints the files and attributes a copy would still change, as rsync itemizes them, one a line.
differences() {
  "${RSYNC[@]}" -n --checksum -i "$SRC/" "$DST/"
}

need_command setfattr attr

# An NFSv4 mount shows a file's ACL only as the xattr system.nfs4_acl, which rsync -A cannot read and rsync -X
# skips (the system namespace): between two NFSv4 mounts the ACLs go by getfattr's dump and setfattr's restore.
NFS4_ACLS=0
if [[ $(findmnt -n -o FSTYPE --mountpoint "$SRC" 2>/dev/null) == nfs4 &&
  $(findmnt -n -o FSTYPE --mountpoint "$DST" 2>/dev/null) == nfs4 ]]; then
  NFS4_ACLS=1
  need_command getfattr attr
fi
# Every file's NFSv4 ACL under $1, as setfattr --restore reads it: relative names (getfattr drops the ./ of
# entries below .), what is never copied left out.
acl_dump() {
  (cd "$1" && getfattr -R -P -h -n system.nfs4_acl -e base64 . 2>/dev/null || true) |
    awk -v RS= -v ORS='\n\n' '!/^# file: (\.\/)?(\.storage-server|\.storage-bench|lost\+found|\.storage-copy)(\/|\n)/'
}
# The same, one file a line and sorted, since two file systems list a directory in different orders.
acl_lines() { acl_dump "$1" | awk -v RS= '{ gsub(/\n/, " "); print }' | sort; }

COPIED=0
if [[ $MODE == copy ]]; then
  if [[ $FOREIGN == no ]] && why=$(foreign); then
    die "$TARGET is not a copy of $FROM: $why. Give an empty target, or allow foreign data to copy into it anyway" \
      "(nothing on it is deleted)"
  fi
  root_kept
  printf 'from %s\n' "$FROM" >"$DST/$MARKER"
  xattrs_kept
  logs=$(mktemp -d)
  # One stream per top-level entry, STREAMS at a time (wait -n: bash 4.3); %i's '>f' marks a file it transferred.
  stream() { "${RSYNC[@]}" -R --out-format='%i %n' "$SRC/./$1" "$DST/" >"$logs/$2"; }
  running=0 n=0 failed=0
  while IFS= read -r -d '' entry; do
    if ((running >= STREAMS)); then
      wait -n || failed=1
      running=$((running - 1))
    fi
    stream "$entry" "$n" &
    running=$((running + 1)) n=$((n + 1))
  done < <(cd "$SRC" && find . -mindepth 1 -maxdepth 1 ! -name .storage-server ! -name .storage-bench ! -name lost+found ! -name "$MARKER" -printf '%P\0')
  while ((running > 0)); do
    wait -n || failed=1
    running=$((running - 1))
  done
  ((failed == 0)) || die "an rsync stream failed (its error is above)"
  # One rsync over the whole tree: -H links what two streams sent as two files, and the top directory's times follow.
  "${RSYNC[@]}" --out-format='%i %n' "$SRC/" "$DST/" >"$logs/whole" || die "the whole-tree rsync failed (its error is above)"
  COPIED=$(cat "$logs"/* | grep -c '^>f' || true)
  if ((NFS4_ACLS)); then
    acl_dump "$SRC" >"$logs/acls"
    (cd "$DST" && setfattr -h --restore="$logs/acls") || die "restoring the NFSv4 ACLs on $TARGET failed (above)"
  fi
fi

[[ $MODE == copy ]] || xattrs_kept
diffs=$(differences) || die "the verifying rsync failed (its error is above)"
if ((NFS4_ACLS)); then
  # Each file whose ACL differs, as the target has it ('>') and the source ('<').
  acl_diffs=$(diff <(acl_lines "$SRC") <(acl_lines "$DST") | grep '^[<>]' || true)
  [[ -z $acl_diffs ]] || diffs+=${diffs:+$'\n'}"NFSv4 ACL differs: "$(head -n 20 <<<"$acl_diffs" | cut -c1-300)
fi
COUNT=0
[[ -z $diffs ]] || COUNT=$(wc -l <<<"$diffs")
if ((COUNT > 0)); then
  echo "storage-copy: $COUNT difference(s) between $SOURCE and $TARGET, as rsync itemizes them (first 20):" >&2
  head -n 20 <<<"$diffs" >&2
fi
printf '{"mode":"%s","from":"%s","source":"%s","target":"%s","streams":%d,"copied":%d,"differences":%d,"xattrs":%s}\n' \
  "$MODE" "$FROM" "$SOURCE" "$TARGET" "$STREAMS" "$COPIED" "$COUNT" "$XATTRS"
((COUNT == 0)) || exit 3
