# shellcheck shell=bash
# shellcheck disable=SC2034 # constants for the stage files sourced next to this one
# Guest helpers shared by the server and client stages: result lines on the serial console, the
# server/client hand-shake over the test network, shared constants. The host counts "E2E PASS" / "E2E FAIL".
# Expects ROLE and STAGE, which stage.sh sets.

SERVER_IP=192.168.77.1
CLIENT_IP=192.168.77.10
OUTSIDER_IP=192.168.77.200 # outside the export's 192.168.77.0/28
PORT=7000
# The second wire: the copy's target server and the client's second NIC. The target talks on its own port, so
# that the client can wait for one server while the other's messages wait their turn.
TARGET_IP=192.168.78.1 TARGET_CLIENT_IP=192.168.78.10 TARGET_PORT=7001
if grep -qF "e2e.ip=$TARGET_IP/" /proc/cmdline; then
  SERVER_IP=$TARGET_IP CLIENT_IP=$TARGET_CLIENT_IP PORT=$TARGET_PORT
fi
EXPORT=/export/data
MNT=/mnt/storage
# The client mount options the construct publishes as clientMountOptions, written by render.ts, except
# noresvport. The export is `secure`, the Linux default, and refuses a noresvport mount. It takes only
# clients on reserved ports, so a user without root on a cluster node cannot forge another uid with AUTH_SYS.
PUBLISHED_MOUNT_OPTS=$(cat "$CTL/userdata/mount-options")
MOUNT_OPTS=${PUBLISHED_MOUNT_OPTS/,noresvport/}
STATE=/var/lib/e2e # on this VM's own root disk: survives its reboots within a run
SCEN=${STAGE:?}     # the label on result lines; a stage may switch it between scenarios
mkdir -p "$STATE"

pass() { echo "E2E PASS $SCEN: $1"; }
fail() { echo "E2E FAIL $SCEN: $1${2:+ -- $2}"; }
info() { echo "E2E INFO $SCEN: $*"; }
# check <name> <command...>: passes when the command succeeds.
check() {
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(tail -n 4 <<<"$out" | tr '\n' ' ')"; fi
}
# refute <name> <command...>: passes when the command fails.
refute() {
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then fail "$name" "it succeeded: $(tail -n 2 <<<"$out" | tr '\n' ' ')"; else pass "$name"; fi
}
check_eq() { if [[ $2 == "$3" ]]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi; }
check_has() { if [[ $2 == *"$3"* ]]; then pass "$1"; else fail "$1" "'$3' not in '$2'"; fi; }
lacks() { [[ $1 != *"$2"* ]]; }

peer() { if [[ $ROLE == server ]]; then echo "$CLIENT_IP"; else echo "$SERVER_IP"; fi; }
# send <message> [timeout]: delivers one line to the peer, retrying until it listens.
send() {
  local end=$((SECONDS + ${2:-240}))
  until printf '%s\n' "$1" | nc -N -w 5 "$(peer)" "$PORT" 2>/dev/null; do
    ((SECONDS < end)) || {
      fail "hand-shake: send '$1'" "the peer did not listen"
      return 1
    }
    sleep 1
  done
}
# recv <message> [timeout]: waits for the peer to send exactly this line.
recv() {
  local got
  got=$(timeout "${2:-240}" nc -l -N "$PORT" </dev/null | head -n 1)
  [[ $got == "$1" ]] || {
    fail "hand-shake: receive '$1'" "got '${got:-nothing}'"
    return 1
  }
}
# recv_any <word> [timeout]: waits for the peer to send a line "<word> <value>", and prints the value.
recv_any() {
  local got
  got=$(timeout "${2:-240}" nc -l -N "$PORT" </dev/null | head -n 1)
  [[ $got == "$1 "?* ]] || {
    fail "hand-shake: receive '$1 ...'" "got '${got:-nothing}'" >&2 # to the console, not to the caller's value
    return 1
  }
  printf '%s\n' "${got#"$1 "}"
}
# wait_for <pid> <seconds>: succeeds when this shell's background job ends well within the time.
wait_for() {
  local end=$((SECONDS + $2))
  while kill -0 "$1" 2>/dev/null && ((SECONDS < end)); do sleep 1; done
  ! kill -0 "$1" 2>/dev/null && wait "$1"
}

# bench <label> <directory>: fio sequential 1 MiB write then read of one file, direct I/O with fsync at
# the end, printed as "E2E BENCH <label> write|read <MB/s>" in 10^6 bytes per second. The role defines
# as_bench, how fio runs: the client runs it as the user who owns the test directory.
bench() {
  local dir=$2 rw out kib
  for rw in write read; do
    out=$(as_bench fio --name=seq --directory="$dir" --filename=bench.bin --rw="$rw" --bs=1M --size="${BENCH_SIZE:-512M}" \
      --direct=1 --ioengine=psync --end_fsync=1 --minimal 2>&1) || { fail "fio $rw in $dir" "$out"; return 1; }
    # Terse format: field 7 is the read bandwidth, field 48 the write bandwidth, in KiB/s.
    if [[ $rw == write ]]; then kib=$(cut -d';' -f48 <<<"$out"); else kib=$(cut -d';' -f7 <<<"$out"); fi
    echo "E2E BENCH $1 $rw $(awk -v k="$kib" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }')"
  done
  as_bench rm -f "$dir/bench.bin"
}
