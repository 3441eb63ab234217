#!/usr/bin/env bash
# storage-lustre-quota: a cluster node's part of an FSx for Lustre server's quotas. AWS's guide, "Using Lustre storage
# quotas", sets and reads them from a client with lfs setquota and lfs quota, so the server's State Manager association
# runs this on the cluster's nodes with the stack's limits. It finds the file system by its mount name at the mount
# point, sets each limit as a hard block limit (lfs takes KiB), gives a project's directory its project id, and lifts
# the limits this node set before that the list no longer has; what it set is kept in a state file of the node. Limits
# set by hand for other ids, and inode limits, are left alone. With --action report it prints the use and limit of each
# listed id and of every local user (uid 1000 and up), fullest first. It prints one JSON line at the end.
#
# Usage: storage-lustre-quota --mount-name NAME --mount-point DIR --limits LIST [--action apply|report]
#   LIST: comma-separated user:<uid>:<GiB>, group:<gid>:<GiB>, project:<id>:<GiB>:/<directory under the root>; or empty
set -euo pipefail
export LC_ALL=C

die() {
  echo "storage-lustre-quota: ERROR: $*" >&2
  exit 1
}

USAGE='storage-lustre-quota --mount-name NAME --mount-point DIR --limits LIST [--action apply|report]'
MOUNT_NAME="" MOUNT_POINT="" LIMITS="" ACTION=apply
while (($#)); do
  case $1 in
    --mount-name) MOUNT_NAME=${2:-} && shift 2 ;;
    --mount-point) MOUNT_POINT=${2:-} && shift 2 ;;
    --limits) LIMITS=${2-} && shift 2 ;;
    --action) ACTION=${2:-} && shift 2 ;;
    *) die "unexpected argument '$1' (usage: $USAGE)" ;;
  esac
done
# The FSx API's LustreFileSystemConfiguration.MountName: ^([A-Za-z0-9_-]{1,8})$.
[[ $MOUNT_NAME =~ ^[A-Za-z0-9_-]{1,8}$ ]] || die "--mount-name must be the file system's mount name (1-8 of [A-Za-z0-9_-]), got '$MOUNT_NAME'"
[[ $MOUNT_POINT =~ ^(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$ && ! $MOUNT_POINT =~ /\.\.(/|$) ]] ||
  die "--mount-point must be an absolute path of [A-Za-z0-9._-] segments, got '$MOUNT_POINT'"
[[ $ACTION == apply || $ACTION == report ]] || die "--action must be apply or report, got '$ACTION'"

# The limits, checked entry by entry as lib/backends/fsx/quotas.ts renders them: the association's parameter crossed
# SSM, and a token resolved at deploy is seen first here.
MAX=2147483647
declare -A WANT=() DIR=()
IFS=, read -r -a entries <<<"$LIMITS"
# read drops a trailing empty field and stops at a line break: the entries joined again must be the whole list.
[[ $(IFS=, && printf '%s' "${entries[*]}") == "$LIMITS" ]] ||
  die "--limits must be entries joined by single commas, without an empty one or a line break, got '$LIMITS'"
n=0
for e in "${entries[@]}"; do
  n=$((n + 1))
  if [[ $e =~ ^(user|group):([0-9]{1,10}):([0-9]{1,10})$ ]]; then
    type=${BASH_REMATCH[1]} id=${BASH_REMATCH[2]} gib=${BASH_REMATCH[3]} dir=""
  elif [[ ! $e =~ /\.\.(/|$) && $e =~ ^project:([0-9]{1,10}):([0-9]{1,10}):((/[A-Za-z0-9_-][A-Za-z0-9._-]*)+)$ ]]; then
    type=project id=${BASH_REMATCH[1]} gib=${BASH_REMATCH[2]} dir=${BASH_REMATCH[3]}
  else
    die "--limits entry $n must be user:<uid>:<GiB>, group:<gid>:<GiB> or project:<id>:<GiB>:/<dir>, got '$e'"
  fi
  ((10#$id <= MAX)) || die "--limits entry $n: the id must be at most $MAX, got $id"
  ((10#$gib >= 1 && 10#$gib <= MAX)) || die "--limits entry $n: the GiB must be 1-$MAX, got $gib"
  # AWS: "Quotas set for the root user are not enforced"; project 0 is every file without a project.
  [[ $type != user ]] || ((10#$id != 0)) || die "--limits entry $n: the root user's quota is not enforced; leave it out"
  [[ $type != project ]] || ((10#$id != 0)) || die "--limits entry $n: project 0 is every file without a project; use another id"
  key=$type:$((10#$id))
  [[ -z ${WANT[$key]:-} ]] || die "--limits entry $n repeats the $type limit of id $((10#$id))"
  # A file has one project id, and lfs project -r gives a directory's whole tree its id: one tree, one project.
  if [[ $type == project ]]; then
    for k in "${!DIR[@]}"; do
      d=${DIR[$k]} why="a file counts toward one project only"
      [[ -z $d || $d != "$dir" ]] || die "--limits entry $n: the directory $dir is also project ${k#*:}'s; $why"
      [[ -z $d || $dir != "$d"/* ]] || die "--limits entry $n: the directory $dir is inside $d, project ${k#*:}'s; $why"
      [[ -z $d || $d != "$dir"/* ]] || die "--limits entry $n: the directory $dir holds $d, project ${k#*:}'s; $why"
    done
  fi
  WANT[$key]=$((10#$gib))
  DIR[$key]=$dir
done

STATE_DIR=${STORAGE_LUSTRE_STATE_DIR:-/var/lib/storage-server/lustre-quota}
STATE=$STATE_DIR/$MOUNT_NAME
# No limits and none set before: nothing to do, not even to wait for the mount (every Lustre server has the association).
if [[ $ACTION == apply && ${#WANT[@]} -eq 0 && ! -s $STATE ]]; then
  echo "{\"action\":\"apply\",\"mountPoint\":\"$MOUNT_POINT\",\"set\":0,\"lifted\":0}"
  exit 0
fi

# The file system mounted at the mount point: lustre, its source ending in :/<mount name> (the NID the client resolved
# stands before it, not the DNS name). The client-mount association mounts it; a node that has not yet waits.
MOUNTS=${STORAGE_LUSTRE_MOUNTS:-/proc/mounts}
WAIT=${STORAGE_LUSTRE_WAIT_SECONDS:-600}
mounted() { awk -v mp="$MOUNT_POINT" -v tail=":/$MOUNT_NAME" '$2 == mp && $3 == "lustre" && substr($1, length($1) - length(tail) + 1) == tail { f = 1 } END { exit !f }' "$MOUNTS"; }
deadline=$((SECONDS + WAIT))
until mounted; do
  ((SECONDS < deadline)) || die "no Lustre file system with mount name $MOUNT_NAME is mounted at $MOUNT_POINT after ${WAIT}s: is this node tagged for the cluster and its client-mount association done?"
  sleep 10
done
command -v lfs >/dev/null || die "lfs is missing: the Lustre client is installed where the file system is mounted"

flag() { case $1 in user) echo -u ;; group) echo -g ;; project) echo -p ;; esac; }

if [[ $ACTION == report ]]; then
  # Each id's use and hard limit in KiB, as lfs quota -q prints them (a '*' marks an id over its limit).
  declare -A SEEN=()
  rows=()
  add_row() {
    local type=$1 id=$2 fields
    [[ -z ${SEEN[$type:$id]:-} ]] || return 0
    SEEN[$type:$id]=1
    fields=$(lfs quota -q "$(flag "$type")" "$id" "$MOUNT_POINT" | tr -s ' \n' '  ') || die "lfs quota $(flag "$type") $id $MOUNT_POINT failed"
    read -r _ used _ limit _ <<<"$fields"
    rows+=("${used%\*} $type $id ${limit%\*}")
  }
  for key in "${!WANT[@]}"; do add_row "${key%%:*}" "${key#*:}"; done
  while IFS=: read -r _ _ uid _; do
    [[ $uid =~ ^[0-9]+$ ]] && ((uid >= 1000 && uid < 65534)) && add_row user "$uid"
  done < <(getent passwd || true)
  printf '%-8s %-10s %16s %16s\n' type id used_kib limit_kib
  json=""
  while read -r used type id limit; do
    printf '%-8s %-10s %16s %16s\n' "$type" "$id" "$used" "$limit"
    json+="${json:+,}{\"type\":\"$type\",\"id\":$id,\"usedKiB\":$used,\"limitKiB\":$limit}"
  done < <(printf '%s\n' "${rows[@]}" | sort -k1,1nr)
  echo "{\"action\":\"report\",\"mountPoint\":\"$MOUNT_POINT\",\"ids\":[$json]}"
  exit 0
fi

# Makes a project's directory under the mount point, a component at a time, none a symlink: the file system is its
# users' to write, and a symlink one of them made on the way would have root make and mark a directory outside it.
# (A user swapping a component between the test and the mkdir is not stopped: bash has no openat(O_NOFOLLOW).)
project_dir() {
  local at=$MOUNT_POINT part parts
  IFS=/ read -r -a parts <<<"${1#/}"
  for part in "${parts[@]}"; do
    at+=/$part
    [[ ! -L $at ]] || die "$at is a symlink: a project's directory is made and marked only through directories of the file system"
    mkdir -p "$at" || die "cannot make $at"
  done
}

mkdir -p "$STATE_DIR"
set_count=0 lifted=0
for key in "${!WANT[@]}"; do
  type=${key%%:*} id=${key#*:}
  if [[ $type == project ]]; then
    project_dir "${DIR[$key]}"
    # Inherited by what is made below it (-s), and given to what is there already (-r).
    lfs project -p "$id" -r -s "$MOUNT_POINT${DIR[$key]}" || die "lfs project -p $id -r -s $MOUNT_POINT${DIR[$key]} failed"
  fi
  lfs setquota "$(flag "$type")" "$id" -b 0 -B "$((WANT[$key] * 1048576))" "$MOUNT_POINT" ||
    die "lfs setquota $(flag "$type") $id on $MOUNT_POINT failed (a node whose root the file system squashes may not set quotas: see the README, Quotas)"
  set_count=$((set_count + 1))
done
if [[ -f $STATE ]]; then
  while read -r key; do
    [[ $key =~ ^(user|group|project):[0-9]+$ && -z ${WANT[$key]:-} ]] || continue
    lfs setquota "$(flag "${key%%:*}")" "${key#*:}" -b 0 -B 0 "$MOUNT_POINT" || die "lifting the ${key%%:*} limit of id ${key#*:} failed"
    lifted=$((lifted + 1))
  done <"$STATE"
fi
printf '%s\n' "${!WANT[@]}" | sed '/^$/d' | sort >"$STATE.new"
mv -f "$STATE.new" "$STATE"
echo "{\"action\":\"apply\",\"mountPoint\":\"$MOUNT_POINT\",\"set\":$set_count,\"lifted\":$lifted}"
