#!/usr/bin/env bash
# Freezes and thaws the storage server's data file system around an EBS snapshot taken by Amazon Data
# Lifecycle Manager (DLM), so the snapshot set is application-consistent. DLM runs it through an SSM
# Command document, once with `pre-script` before it starts the snapshots and once with `post-script`
# after; `dry-run` only checks that a freeze would work.
#
# Usage: snapshot-freeze.sh <pre-script|post-script|dry-run> <mount-path> [<max-freeze-seconds>]
#
# pre-script   sync, arm a watchdog that thaws the file system by itself after <max-freeze-seconds>
#              (default 60) even if this command is killed, then `fsfreeze -f`.
# post-script  `fsfreeze -u` (a file system that is not frozen is success), then disarm the watchdog.
# dry-run      check that <mount-path> is a mounted XFS file system and fsfreeze is installed.
#
# Exit codes: 0 success; 2 bad arguments; and the codes DLM documents for pre and post scripts:
#   201 pre-script failed (nothing is left frozen)   202 post-script could not thaw
#   204 pre-script found the file system already frozen   206 not ready (not mounted, not XFS, ...)
# Any non-zero pre-script exit makes DLM fall back to a crash-consistent snapshot when the policy
# says so (ExecuteOperationOnScriptFailure).
#
# The watchdog is a transient systemd timer when systemd runs the host (it belongs to PID 1, so it
# survives the SSM agent killing this command or restarting), else a process in its own session.
# Environment (for tests, and for hosts where detection is wrong):
#   SNAPSHOT_FREEZE_WATCHDOG   systemd | detached      (default: systemd when it is PID 1)
#   SNAPSHOT_FREEZE_STATE_DIR  where freeze state lives (default /run/storage-server-freeze; never
#                              on the data file system, which is frozen while the state is written)
set -euo pipefail
export LC_ALL=C
PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"

readonly EXIT_USAGE=2 EXIT_PRE_FAILED=201 EXIT_POST_FAILED=202 EXIT_ALREADY_FROZEN=204 EXIT_NOT_READY=206
readonly MAX_FREEZE_LIMIT=3600
readonly WATCHDOG_NAME=storage-server-thaw

log() { echo "snapshot-freeze: $*"; }
fail() {
  local code=$1
  shift
  echo "snapshot-freeze: ERROR: $*" >&2
  exit "$code"
}
usage() {
  echo "usage: snapshot-freeze.sh <pre-script|post-script|dry-run> <mount-path> [<max-freeze-seconds>]" >&2
  fail "$EXIT_USAGE" "$*"
}

mode=${1:-}
mount_path=${2:-}
max_freeze=${3:-60}
[[ $# -ge 2 && $# -le 3 ]] || usage "expected 2 or 3 arguments, got $#"
case $mode in
  pre-script | post-script | dry-run) ;;
  *) usage "command '$mode' is not one of pre-script, post-script, dry-run" ;;
esac
# An absolute, canonical path; never `/`: freezing the root file system would freeze this script too.
if [[ ! $mount_path =~ ^(/[A-Za-z0-9._-]+)+$ || /$mount_path/ == *"/./"* || /$mount_path/ == *"/../"* ]]; then
  usage "mount path '$mount_path' must be an absolute path without trailing '/', '.' or '..' and not '/'"
fi
if [[ ! $max_freeze =~ ^[1-9][0-9]{0,3}$ ]] || ((max_freeze > MAX_FREEZE_LIMIT)); then
  usage "max-freeze-seconds '$max_freeze' must be a whole number from 1 to $MAX_FREEZE_LIMIT"
fi

state_dir=${SNAPSHOT_FREEZE_STATE_DIR:-/run/storage-server-freeze}
state_file="$state_dir/$(printf '%s' "$mount_path" | sha256sum | cut -c1-16).state"

# The file system type mounted exactly at $mount_path (the topmost mount), or nothing.
mounted_fstype() {
  local types
  types=$(findmnt --noheadings --output FSTYPE --mountpoint "$mount_path" 2>/dev/null) || true
  printf '%s\n' "$types" | tail -n 1
}

check_ready() {
  command -v fsfreeze >/dev/null || fail "$EXIT_NOT_READY" "fsfreeze not found (install util-linux)"
  command -v findmnt >/dev/null || fail "$EXIT_NOT_READY" "findmnt not found (install util-linux)"
  local fstype
  fstype=$(mounted_fstype)
  [[ -n $fstype ]] || fail "$EXIT_NOT_READY" "$mount_path is not a mount point: the data file system is not mounted"
  [[ $fstype == xfs ]] || fail "$EXIT_NOT_READY" "$mount_path is $fstype, not xfs: refusing to freeze it"
}

watchdog_mode() {
  if [[ -n ${SNAPSHOT_FREEZE_WATCHDOG:-} ]]; then
    echo "$SNAPSHOT_FREEZE_WATCHDOG"
  elif [[ -d /run/systemd/system ]] && command -v systemd-run >/dev/null; then
    echo systemd
  else
    echo detached
  fi
}

# Prints the watchdog's id ("systemd:<unit>" or "detached:<pid>") on stdout.
arm_watchdog() {
  local unit fsfreeze_bin pid
  fsfreeze_bin=$(command -v fsfreeze)
  if [[ $(watchdog_mode) == systemd ]]; then
    unit="$WATCHDOG_NAME-$(date +%s)-$$"
    if systemd-run --quiet --collect --unit="$unit" --on-active="${max_freeze}s" \
      --timer-property=AccuracySec=1s --description="Thaw $mount_path if the snapshot post-script never runs" \
      "$fsfreeze_bin" -u "$mount_path" >&2; then
      echo "systemd:$unit"
      return 0
    fi
    log "systemd-run could not arm the watchdog; falling back to a detached process" >&2
  fi
  # setsid: its own session and process group, so killing the SSM command's group spares it.
  # shellcheck disable=SC2016 # the inner script expands its own positional parameters
  setsid nohup bash -c 'sleep "$1" && "$2" -u "$3"' "$WATCHDOG_NAME" "$max_freeze" "$fsfreeze_bin" "$mount_path" \
    </dev/null >/dev/null 2>&1 &
  pid=$!
  echo "detached:$pid"
}

disarm_watchdog() {
  local id=$1
  case $id in
    systemd:*)
      systemctl stop "${id#systemd:}.timer" 2>/dev/null || true
      ;;
    detached:*)
      local pid=${id#detached:}
      # Only signal the process group if it is still our watchdog (pids are reused).
      local cmdline=""
      [[ -r /proc/$pid/cmdline ]] && cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline")
      if [[ $cmdline == *"$WATCHDOG_NAME"* ]]; then
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
      fi
      ;;
  esac
  log "auto-thaw watchdog disarmed ($id)"
}

pre_script() {
  check_ready
  { mkdir -p "$state_dir" && chmod 0700 "$state_dir"; } || fail "$EXIT_PRE_FAILED" "cannot create $state_dir; not freezing"
  log "flushing $mount_path"
  sync -f "$mount_path" || fail "$EXIT_PRE_FAILED" "sync of $mount_path failed; not freezing"
  local watchdog out
  watchdog=$(arm_watchdog) || fail "$EXIT_PRE_FAILED" "could not arm the auto-thaw watchdog; not freezing"
  # Written aside and moved in place only once frozen, so a failed attempt never clobbers the state
  # of a freeze that is still in effect.
  if ! printf 'watchdog=%s\nfrozen_at=%s\n' "$watchdog" "$(date +%s)" >"$state_file.new"; then
    disarm_watchdog "$watchdog"
    fail "$EXIT_PRE_FAILED" "cannot write $state_file.new; not freezing"
  fi
  if ! out=$(fsfreeze -f "$mount_path" 2>&1); then
    disarm_watchdog "$watchdog"
    rm -f "$state_file.new"
    if [[ $out == *"Device or resource busy"* ]]; then
      fail "$EXIT_ALREADY_FROZEN" "$mount_path is already frozen (by an earlier pre-script whose post-script" \
        "has not run yet, or by someone else); leaving it as it is: $out"
    fi
    fail "$EXIT_PRE_FAILED" "fsfreeze -f $mount_path failed: $out"
  fi
  mv -f "$state_file.new" "$state_file" || log "WARNING: could not record the freeze in $state_file;" \
    "post-script will thaw but cannot disarm the watchdog ($watchdog), which then finds nothing to thaw"
  log "froze $mount_path; it thaws by itself in ${max_freeze}s unless post-script runs first ($watchdog)"
}

post_script() {
  local watchdog="" out
  if [[ -f $state_file ]]; then
    watchdog=$(sed -n 's/^watchdog=//p' "$state_file")
  fi
  if [[ -z $(mounted_fstype) ]]; then
    log "$mount_path is not a mount point; nothing to thaw"
  elif out=$(fsfreeze -u "$mount_path" 2>&1); then
    log "thawed $mount_path"
  elif [[ $out == *"Invalid argument"* ]]; then
    if [[ -n $watchdog ]]; then
      log "WARNING: $mount_path was already thawed before post-script ran (the auto-thaw watchdog fired," \
        "or someone thawed it): this snapshot may be only crash-consistent; consider a larger maxFreezeSeconds"
    else
      log "$mount_path is not frozen; nothing to thaw"
    fi
  else
    # Keep the watchdog armed: it retries the thaw when it fires.
    fail "$EXIT_POST_FAILED" "fsfreeze -u $mount_path failed: $out"
  fi
  if [[ -n $watchdog ]]; then
    disarm_watchdog "$watchdog"
  fi
  rm -f "$state_file"
}

case $mode in
  dry-run)
    check_ready
    log "dry-run: $mount_path is a mounted xfs file system and fsfreeze is available; a freeze would be" \
      "held for at most ${max_freeze}s (watchdog: $(watchdog_mode))"
    ;;
  pre-script) pre_script ;;
  post-script) post_script ;;
esac
