#!/usr/bin/env bash
# storage-metrics: once a minute, by storage-metrics.timer, tells the CloudWatch agent's StatsD listener how the NFS
# server is doing. It sends a heartbeat gauge, export_live=1, only while the export is live: the file system mounted at
# the export path, exported, and nfsd running threads. It sends the data file system's used space and inodes, percent,
# only while it is mounted there, so never the root file system underneath. And it sends nfsd's RPC calls and bytes read
# and written since the last run, counters from /proc/net/rpc/nfsd. The metric names and dimensions are those of
# lib/server-metrics.ts. The dimensions travel as DogStatsD tags, which the agent turns into CloudWatch dimensions.
#
# Usage: storage-metrics --cluster NAME --server NAME --export PATH
#          [--statsd HOST:PORT (127.0.0.1:8125)] [--nfsd-stats FILE (/proc/net/rpc/nfsd)]
#          [--nfsd-threads FILE (/proc/fs/nfsd/threads)] [--state FILE (/run/storage-server/nfsd-counters)]
#          [--out FILE (instead of StatsD: append the lines)]
#
# It sends nothing it cannot vouch for: no heartbeat unless every check passes, and no counter on a first run, with no
# previous reading, or after nfsd restarted, when its counters went down.
set -euo pipefail
export LC_ALL=C

die() {
  echo "storage-metrics: ERROR: $*" >&2
  exit 1
}

CLUSTER="" SERVER="" EXPORT="" STATSD=127.0.0.1:8125 NFSD_STATS=/proc/net/rpc/nfsd NFSD_THREADS=/proc/fs/nfsd/threads STATE=/run/storage-server/nfsd-counters OUT=""
while (($#)); do
  case $1 in
    --cluster) CLUSTER=${2:-} && shift 2 ;;
    --server) SERVER=${2:-} && shift 2 ;;
    --export) EXPORT=${2:-} && shift 2 ;;
    --statsd) STATSD=${2:-} && shift 2 ;;
    --nfsd-stats) NFSD_STATS=${2:-} && shift 2 ;;
    --nfsd-threads) NFSD_THREADS=${2:-} && shift 2 ;;
    --state) STATE=${2:-} && shift 2 ;;
    --out) OUT=${2:-} && shift 2 ;;
    *) die "unexpected argument '$1'" ;;
  esac
done
# Names as the construct validates them; nothing here may break a StatsD line with ':', '|', ',' or '#'.
[[ $CLUSTER =~ ^[A-Za-z0-9_.-]{1,64}$ ]] || die "--cluster is invalid: '$CLUSTER'"
[[ $SERVER =~ ^[A-Za-z0-9_.-]{1,64}$ ]] || die "--server is invalid: '$SERVER'"
[[ $EXPORT =~ ^(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$ ]] || die "--export is invalid: '$EXPORT'"
[[ $STATSD =~ ^([0-9.]+):([0-9]+)$ ]] || die "--statsd must be IPv4:port, got '$STATSD'"
TAGS="#ClusterName:$CLUSTER,ServerName:$SERVER"

LINES=()
# The heartbeat: the data file system mounted at the export path, the export live, nfsd serving.
live() {
  mountpoint -q "$EXPORT" || return 1
  exportfs -s 2>/dev/null | awk -v p="$EXPORT" '$1 == p { found = 1 } END { exit !found }' || return 1
  local threads
  threads=$(cat "$NFSD_THREADS" 2>/dev/null || echo 0)
  [[ $threads =~ ^[0-9]+$ ]] && ((threads > 0))
}
if live; then LINES+=("export_live:1|g|$TAGS"); fi

# Used space and inodes as df counts them, used / (used + available to users), with two decimals.
if mountpoint -q "$EXPORT" && fs=$(stat -f -c '%b %f %a %c %d' "$EXPORT"); then
  read -r used_pct inodes_pct < <(awk '{
    used = $1 - $2; blocks = used + $3; iused = $4 - $5
    printf "%.2f %.2f\n", (blocks > 0 ? 100 * used / blocks : 0), ($4 > 0 ? 100 * iused / $4 : 0) }' <<<"$fs")
  LINES+=("disk_used_percent:$used_pct|g|$TAGS" "disk_inodes_used_percent:$inodes_pct|g|$TAGS")
fi

# The fullest user: the largest use of a hard limit, the user's own or XFS's default (id 0's), percent. Only with user
# quotas on the mount and some limit set; xfs_quota reads the kernel's quota records, not the files, so it is cheap.
if mountpoint -q "$EXPORT" && [[ ,$(findmnt -no OPTIONS --mountpoint "$EXPORT" 2>/dev/null), == *,usrquota,* ]] &&
  report=$(xfs_quota -x -c 'report -u -b -n -N' "$EXPORT" 2>/dev/null); then
  fullest=$(awk '$1 ~ /^#[0-9]+$/ && $2 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ { id[NR] = $1; used[NR] = $2; hard[NR] = $4 }
    $1 == "#0" { d = $4 }
    END { for (i in id) { h = hard[i] > 0 ? hard[i] : d; if (id[i] != "#0" && h > 0) { p = 100 * used[i] / h; if (!n++ || p > m) m = p } }
      if (n) printf "%.2f\n", m }' <<<"$report")
  [[ -z $fullest ]] || LINES+=("quota_fullest_user_percent:$fullest|g|$TAGS")
fi

# nfsd's counters: rpc <calls> ..., io <bytes read> <bytes written>.
if [[ -r $NFSD_STATS ]]; then
  read -r calls bytes_read bytes_written < <(awk '$1 == "rpc" { c = $2 } $1 == "io" { r = $2; w = $3 }
    END { print c + 0, r + 0, w + 0 }' "$NFSD_STATS")
  now="$calls $bytes_read $bytes_written"
  if [[ -r $STATE ]] && read -r p_calls p_read p_written <"$STATE" &&
    ((calls >= p_calls && bytes_read >= p_read && bytes_written >= p_written)); then
    LINES+=("nfsd_ops:$((calls - p_calls))|c|$TAGS" "nfsd_read_bytes:$((bytes_read - p_read))|c|$TAGS"
      "nfsd_write_bytes:$((bytes_written - p_written))|c|$TAGS")
  fi
  mkdir -p "${STATE%/*}" && printf '%s\n' "$now" >"$STATE.new" && mv "$STATE.new" "$STATE"
fi

((${#LINES[@]})) || exit 0
if [[ -n $OUT ]]; then
  printf '%s\n' "${LINES[@]}" >>"$OUT"
else
  # One datagram per line to the agent's listener, by bash's /dev/udp, with nothing to install.
  for line in "${LINES[@]}"; do printf '%s' "$line" >"/dev/udp/${STATSD%:*}/${STATSD##*:}" || true; done
fi
