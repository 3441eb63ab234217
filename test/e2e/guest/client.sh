# shellcheck shell=bash
# shellcheck disable=SC2034 # SCEN is read by the result helpers in common.sh
# Client stages: one function per boot of the client VM, paired with the server stage of the same name.
# Every check here goes over NFS, the way a cluster node sees the server.

SUMS=$STATE/checksums
# The copy's helpers, beside this file.
# shellcheck source=copy.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/copy.sh"

nfs_mount() { # [options] -- mounts the export at $MNT
  mkdir -p "$MNT"
  timeout 120 mount -t nfs -o "${1:-$MOUNT_OPTS}" "$SERVER_IP:$EXPORT" "$MNT"
}
# A mount that must fail does so quickly with retry=0, and is bounded anyway.
nfs_mount_once() {
  mkdir -p "$MNT"
  timeout 60 mount -t nfs -o "$1,retry=0" "$SERVER_IP:$EXPORT" "$MNT"
}
as_user() { setpriv --reuid=1000 --regid=1000 --clear-groups "$@"; }
as_bench() { as_user "$@"; }
drop_caches() { sync && echo 3 >/proc/sys/vm/drop_caches; }

# Writes a few files as an ordinary user, and records their checksums on the client's own disk.
write_files() {
  as_user mkdir -p "$MNT/e2e/tree/a/b" || return 1
  as_user sh -c "head -c 24M /dev/urandom >'$MNT/e2e/big.bin' && head -c 1M /dev/urandom >'$MNT/e2e/tree/a/mid.bin' &&
    head -c 4k /dev/urandom >'$MNT/e2e/tree/a/b/small.bin' && echo hello >'$MNT/e2e/tree/hello.txt' && sync" || return 1
  (cd "$MNT/e2e" && find . -type f | sort | xargs sha256sum) >"$SUMS"
}
verify_files() { (cd "$MNT/e2e" && sha256sum --quiet -c "$SUMS") && [[ $(wc -l <"$SUMS") -eq 4 ]]; }
remount_verify() { nfs_mount "$@" && verify_files; }

# An address outside the export's CIDR, on the same wire, in its own network namespace and with its own
# host name, so its own NFSv4 client identity. The server is reachable from it, and the mount is refused.
outsider_refused() {
  local out rc
  ip link add outside0 link eth0 type macvlan mode bridge &&
    ip netns add outsider && ip link set outside0 netns outsider &&
    ip -n outsider addr add "$OUTSIDER_IP/24" dev outside0 && ip -n outsider link set outside0 up &&
    ip -n outsider link set lo up || return 2
  if ! ip netns exec outsider nc -z -w 10 "$SERVER_IP" 2049; then
    echo "the outsider cannot reach the server at all: the test proves nothing"
    ip netns del outsider
    return 3
  fi
  mkdir -p /mnt/outsider
  out=$(ip netns exec outsider unshare --uts sh -c \
    "hostname outsider && timeout 60 mount -t nfs -o '$MOUNT_OPTS,retry=0' '$SERVER_IP:$EXPORT' /mnt/outsider" 2>&1)
  rc=$?
  ip netns exec outsider umount /mnt/outsider 2>/dev/null
  ip netns del outsider
  echo "$out"
  [[ $rc -ne 0 && $out == *"denied"* ]]
}

# The outsider of outsider_refused mounts the export and checks every file the client wrote.
outsider_verifies() {
  local out rc
  ip link add outside0 link eth0 type macvlan mode bridge &&
    ip netns add outsider && ip link set outside0 netns outsider &&
    ip -n outsider addr add "$OUTSIDER_IP/24" dev outside0 && ip -n outsider link set outside0 up &&
    ip -n outsider link set lo up || return 2
  mkdir -p /mnt/outsider
  out=$(ip netns exec outsider unshare --uts --mount sh -c \
    "hostname outsider && timeout 60 mount -t nfs -o '$MOUNT_OPTS' '$SERVER_IP:$EXPORT' /mnt/outsider &&
     cd /mnt/outsider/e2e && sha256sum --quiet -c '$SUMS' && cd / && umount /mnt/outsider" 2>&1)
  rc=$?
  ip netns del outsider
  echo "$out"
  return "$rc"
}

check_mount_options() {
  local o opts
  opts=$(findmnt -nro OPTIONS --mountpoint "$MNT")
  for o in vers=4.1 rsize=1048576 wsize=1048576 hard timeo=600 retrans=2; do
    check_has "the mount uses $o" ",$opts," ",$o,"
  done
}

client_fresh() {
  prepare_foreign_disks
  recv ready 900 || return 0
  check "a client outside the CIDR is refused" outsider_refused
  [[ $PUBLISHED_MOUNT_OPTS == *noresvport* ]] && info "the published mount options carry noresvport; mounting without it"
  refute "the export is secure: a client on a non-reserved port (noresvport) is refused" nfs_mount_once "$MOUNT_OPTS,noresvport"
  check "mounts the export with the published options" nfs_mount
  check_mount_options
  refute "root is squashed: root cannot write the export root" touch "$MNT/root-was-here"
  check "writes files as a user" write_files
  umount "$MNT" && drop_caches
  check "remounts and reads every file back intact" remount_verify
  umount "$MNT"
  refute "NFSv3 is not served (not configured)" nfs_mount_once nfsvers=3
  refute "NFSv4.0 is not served (not configured)" nfs_mount_once nfsvers=4.0
  send finished
}

client_reboot() {
  recv ready 900 || return 0
  check "mounts after the server's reboot" nfs_mount
  check "every checksum matches after the reboot" verify_files
  send verified || return 0
  SCEN=rerun
  recv rerun-done 600 || return 0
  drop_caches
  check "every checksum still matches after the re-run, on the same mount" verify_files
  check "the mount still takes writes" as_user sh -c "echo again >'$MNT/e2e/after-rerun.txt' && sync"
  umount "$MNT"
  send remount-done || return 0
  SCEN=live
  recv live-applied 900 || return 0
  refute "a client inside only the old CIDR is refused" nfs_mount_once "$MOUNT_OPTS"
  check "a client inside only the new CIDR mounts and reads every file intact" outsider_verifies
  send live-checked && recv restored 900 || return 0
  check "after the old settings are applied back, the client mounts again" nfs_mount
  check "and every checksum matches" verify_files
  umount "$MNT"
  send finished
}

client_stop_start() {
  recv ready 900 || return 0
  check "mounts the rebuilt export" nfs_mount
  refute "the old files went with the old disks" test -e "$MNT/e2e/big.bin"
  check "writes files to the new array" write_files
  umount "$MNT" && drop_caches
  check "reads them back intact after a remount" remount_verify
  cluster_bench
  umount "$MNT"
  send finished || return 0
  # Scenario 5b, is_missing_by_hand on the server: its bootstrap failed with two of three disks.
  recv disks-missing 900 || return 0
  SCEN='is-missing'
  refute "the client cannot mount while an instance-store disk is missing" nfs_mount_once "$MOUNT_OPTS"
  send missing-checked
}

# The cluster benchmark's node part, lib/scripts/cluster-bench.sh, with the real fio, as root squashed by
# the export, over NFS: a complete run of 64 MiB, then a run interrupted while writing. Neither leaves a file.
cluster_bench() {
  local out line pid
  SCEN='cluster-bench'
  out=$(bash "$CTL/scripts/cluster-bench.sh" --mount "$MNT" --size-mib 64 --run e2e-1 2>"$STATE/bench.err")
  check_eq "the run succeeds" "$?" 0
  line=$(tail -n 1 <<<"$out")
  info "result: $line"
  check "it prints one JSON line with the bytes and times of both phases" python3 -c 'import json, sys
r = json.loads(sys.argv[1])
assert r["writeBytes"] == r["readBytes"] == 64 * 2**20 and r["writeMs"] > 0 and r["readMs"] > 0, r' "$line"
  check_eq "it leaves no file on the export" "$(find "$MNT/.storage-bench" -mindepth 1 | wc -l)" 0
  bash "$CTL/scripts/cluster-bench.sh" --mount "$MNT" --size-mib 2048 --run e2e-2 >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 60); do [[ -e $MNT/.storage-bench/e2e-2/$(hostname -s)/data ]] && break; sleep 1; done
  check "the run to interrupt is writing" test -e "$MNT/.storage-bench/e2e-2/$(hostname -s)/data"
  sleep 2
  kill -TERM "$pid"
  wait "$pid"
  check_eq "interrupted while writing, it exits on TERM" "$?" 143
  check "fio is gone" bash -c '! pgrep -x fio'
  check_eq "and its files are gone from the export" "$(find "$MNT/.storage-bench" -mindepth 1 | wc -l)" 0
  SCEN=$STAGE
}

client_foreign() {
  recv ready 900 || return 0
  refute "the client cannot mount: nothing is exported" nfs_mount_once "$MOUNT_OPTS"
  send finished
}

client_ebs() {
  recv ready 900 || return 0
  check "mounts the EBS-backed export with the published options" nfs_mount
  check_mount_options
  check "writes files as a user" write_files
  send written && freeze_scenario
  umount "$MNT" && drop_caches
  check "mounts over NFSv3 too (configured) and reads every file intact" \
    remount_verify "${MOUNT_OPTS/nfsvers=4.1/nfsvers=3},nolock"
  umount "$MNT"
  refute "NFSv4.0 is not served (not configured)" nfs_mount_once nfsvers=4.0
  send finished
}

# Scenario 7, from the client: an NFS write blocks while the server's file system is frozen.
freeze_scenario() {
  local writer msg
  SCEN=freeze
  msg=$(timeout 300 nc -l -N "$PORT" </dev/null | head -n 1)
  [[ $msg == no-freeze ]] && return
  [[ $msg == frozen ]] || {
    fail "hand-shake: receive 'frozen'" "got '${msg:-nothing}'"
    return
  }
  as_user timeout 120 dd if=/dev/urandom of="$MNT/e2e/frozen-nfs.bin" bs=64k count=16 conv=fsync status=none &
  writer=$!
  sleep 5
  check "an NFS write blocks while the server is frozen" kill -0 "$writer"
  send client-blocked && recv thawed 120
  wait_for "$writer" 60
  check_eq "the blocked NFS write completes after the thaw" "$?" 0
  check_eq "and wrote everything" "$(stat -c %s "$MNT/e2e/frozen-nfs.bin" 2>&1)" 1048576
  SCEN=$STAGE
}

client_ebs_grow() {
  recv ready 900 || return 0
  check "mounts the grown export" nfs_mount
  check "every file written before the growth is intact" verify_files
  check "the grown file system takes writes" as_user sh -c "head -c 4M /dev/urandom >'$MNT/e2e/after-grow.bin' && sync"
  umount "$MNT"
  send grown-checked && recv replace-ready 900 || return 0
  replace_client
}

mount_id() { awk -v mp="$MNT" '$5 == mp { print $1 }' /proc/self/mountinfo; }

# The server is replaced under a client that holds a file open for writing under a POSIX lock, on a hard
# mount. Its writes wait while no server answers and resume on the replacement. The replacement lets the
# client reclaim its open and lock, as the scope is the same and the client is on record. A client that
# could not reclaim would count the lock as lost and fail every later write with EIO.
replace_client() {
  local writer rc end mount
  SCEN=replace
  check "mounts the server's address" nfs_mount
  check_has "the mount is hard" ",$(findmnt -nro OPTIONS --mountpoint "$MNT")," ",hard,"
  mount=$(mount_id)
  mkdir -p "$STATE/replace" && chown 1000:1000 "$STATE/replace"
  as_user python3 "$CTL/guest/locked-writer.py" "$MNT/e2e/locked.bin" "$STATE/replace/locked.bin" 40 \
    >"$STATE/replace/writer.log" 2>&1 &
  writer=$!
  end=$((SECONDS + 180))
  until grep -q '^chunk 5 ' "$STATE/replace/writer.log" || ! kill -0 "$writer" 2>/dev/null || ((SECONDS >= end)); do sleep 1; done
  check "the writer holds its lock and has written 5 chunks" grep -q '^chunk 5 ' "$STATE/replace/writer.log"
  send writing || return 0
  recv ready 1500 || return 0 # from the replacement, once its bootstrap has run
  wait_for "$writer" 900
  rc=$?
  sed 's/^/writer: /' "$STATE/replace/writer.log"
  check_eq "the writer's I/O resumed by itself and the file completed under its lock, no I/O error" "$rc" 0
  check_eq "without a remount (the same mount)" "$(mount_id)" "$mount"
  info "longest write (the outage, under emulation): $(awk '$1 == "chunk" && $3 > m { m = $3 } END { print m + 0 }' \
    "$STATE/replace/writer.log") s"
  drop_caches
  check_eq "the file read back from the replacement holds every byte written" \
    "$(sha256sum <"$MNT/e2e/locked.bin" 2>&1)" "$(sha256sum <"$STATE/replace/locked.bin")"
  check "every file written before is intact" verify_files
  umount "$MNT"
  send finished || return 0
  # Scenario 6, second half, ebs_missing_by_hand on the server: its apply failed without volume 2.
  recv volume-missing 600 || return 0
  SCEN='ebs-missing'
  refute "the client cannot mount while a volume is missing" nfs_mount_once "$MOUNT_OPTS"
  send missing-checked
}

client_ebs_xen() {
  recv ready 900 || return 0
  check "mounts the export" nfs_mount
  # A root client (192.168.77.10/32) inside the client CIDR: exports(5), the first of two matching networks wins.
  check "root is not squashed on a root client: root's chown holds" sh -c \
    "touch '$MNT/root-was-here' && chown 4321:4321 '$MNT/root-was-here' && test \"\$(stat -c %u '$MNT/root-was-here')\" = 4321 && rm '$MNT/root-was-here'"
  check "writes files as a user" write_files
  send written && recv grown 900 || return 0
  refute "root is squashed again once the root client is dropped, live" touch "$MNT/root-after-drop"
  drop_caches
  check "every checksum matches on the same mount after the live growth" verify_files
  check "the grown file system takes writes" as_user sh -c "head -c 4M /dev/urandom >'$MNT/e2e/after-grow.bin' && sync"
  umount "$MNT"
  send finished
}

# Growth by added volumes: a writer appends to a locked file, fsync'd each second, all through the growth.
client_ebs_add() {
  local writer rc log=$STATE/ebs-add/writer.log end=$((SECONDS + 180))
  recv ready 900 || return 0
  check "mounts the export" nfs_mount
  check "writes files as a user" write_files
  mkdir -p "$STATE/ebs-add" && chown 1000:1000 "$STATE/ebs-add"
  as_user python3 "$CTL/guest/locked-writer.py" "$MNT/e2e/growing.bin" "$STATE/ebs-add/growing.bin" 120 >"$log" 2>&1 &
  writer=$!
  until grep -q '^chunk 3 ' "$log" || ! kill -0 "$writer" 2>/dev/null || ((SECONDS >= end)); do sleep 1; done
  check "the writer has written 3 chunks before the growth" grep -q '^chunk 3 ' "$log"
  if ! { send writing && recv grown 900; }; then kill "$writer" && return 0; fi
  check "the writer was still writing when the growth was done" kill -0 "$writer"
  info "chunks written before the growth was done: $(grep -c '^chunk' "$log") of 120"
  wait_for "$writer" 600
  rc=$?
  check_eq "the writer ran through the growth without an I/O error" "$rc" 0
  drop_caches
  check_eq "the writer's file read back holds every byte written" \
    "$(sha256sum <"$MNT/e2e/growing.bin" 2>&1)" "$(sha256sum <"$STATE/ebs-add/growing.bin")"
  check "every checksum matches on the same mount after the growth" verify_files
  umount "$MNT"
  send finished
}

# The copy between the ebs-add server, the source, and a second server on the second wire, the target: the node
# mounts both with the published options and runs the script as the copy document does.
client_copy() {
  local sum
  check "the second NIC on the target's wire" bash -c "ip link set eth1 up && ip addr add $TARGET_CLIENT_IP/24 dev eth1"
  sum=$(recv_any source-ready 900) && to_target recv target-ready 900 || return 0
  mkdir -p "$COPY_SOURCE" "$COPY_TARGET"
  check "mounts both servers over NFS" bash -c "mount -t nfs4 -o '$MOUNT_OPTS' $SERVER_IP:$EXPORT $COPY_SOURCE &&
    mount -t nfs4 -o '$MOUNT_OPTS' $TARGET_IP:$EXPORT $COPY_TARGET"
  copy_run
  check_eq "into the target while its export squashes root for this node: refused (exit 1)" "$RC" 1
  check_has "and the refusal says why" "$OUT" "the export squashes root"
  to_target send refused && to_target recv root-ready 900 || return 0
  copy_run
  check_eq "with the node a root client of both: exit 0, no difference" "$RC,$(copy_field differences)" 0,0
  to_target send "copied $sum" && to_target recv verified 900 || return 0
  copy_run
  check_eq "a second run, nothing changed: exit 0, 0 files copied" "$RC,$(copy_field copied)" 0,0
  # Through the NFS mount, as a cluster's users write.
  check "one file changed and one added on the source, as root on this node" \
    bash -c "echo more >>$COPY_SOURCE/d3/data && echo new >$COPY_SOURCE/d5/new && sync"
  send changed && sum=$(recv_any source-changed 900) || return 0
  copy_run
  check_eq "a catch-up run: exit 0, the 2 files copied" "$RC,$(copy_field copied)" 0,2
  to_target send "copied-again $sum" && to_target recv verified-again 900 || return 0
  copy_run --mode verify
  check_eq "--mode verify: exit 0, no difference" "$RC,$(copy_field differences)" 0,0
  umount "$COPY_SOURCE" "$COPY_TARGET"
  send copy-finished && to_target send copy-finished
}

# The ebs-add server after its six volumes grew while stopped: the copy's tree, and the space, seen over NFS.
client_ebs_add_grown() {
  recv ready 900 || return 0
  check "mounts the export" nfs_mount
  check_eq "the file the copy's catch-up run carried is there" "$(cat "$MNT/d5/new" 2>&1)" new
  check "the client sees at least 11 GiB" test "$(df -B1 --output=size "$MNT" | tail -n 1)" -ge 11811160064
  umount "$MNT"
  send finished
}

client_restore_mixed() {
  recv ready 900 || return 0
  refute "the client cannot mount: nothing is exported" nfs_mount_once "$MOUNT_OPTS"
  send finished || return 0
  # restore_own_by_hand on the server: the EBS server's two disks, adopted.
  recv own-ready 900 || return 0
  SCEN='restore-own'
  check "mounts the restored server's export" nfs_mount
  check "the files the EBS server's client wrote are there" test -s "$MNT/e2e/after-grow.bin"
  umount "$MNT"
  send own-finished
}

# Foreign content for scenario 4, made here: another machine formats these disks, virtio serials
# prep-xfs, prep-lvm, prep-gpt and prep-luks. The host then attaches them to the server.
prepare_foreign_disks() {
  local d=/dev/disk/by-id/virtio-
  [[ -e ${d}prep-xfs ]] || return 0
  SCEN=foreign-setup
  check "make a foreign XFS with a file" bash -c "mkfs.xfs -q ${d}prep-xfs && mkdir -p /mnt/p && mount ${d}prep-xfs /mnt/p &&
    echo precious >/mnt/p/precious.txt && umount /mnt/p"
  check "make a foreign LVM volume group named like the bootstrap's, without its tag" bash -c \
    "vgcreate -q storageserver ${d}prep-lvm && lvcreate -q -y -n theirs -L 64m storageserver && vgchange -q -an storageserver"
  check "make a GPT partition table" bash -c "echo 'label: gpt' | sfdisk -q ${d}prep-gpt && sfdisk -q -d ${d}prep-gpt | grep -q 'label: gpt'"
  check "make someone's LUKS2 volume" bash -c "printf theirs | cryptsetup luksFormat --batch-mode --type luks2 \
    --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --label theirs --key-file - ${d}prep-luks"
  sync
  SCEN=$STAGE
}

client_bench() {
  recv ready 900 || return 0
  nfs_mount && bench "nfs-project" "$MNT/e2e"
  umount "$MNT"
  send tuned-done && recv default-ready 900 || return 0
  # What a plain `mount server:/path` gets against the default export.
  mkdir -p "$MNT" && timeout 120 mount -t nfs "$SERVER_IP:$EXPORT" "$MNT"
  info "default mount: $(findmnt -nro OPTIONS --mountpoint "$MNT")"
  bench "nfs-default" "$MNT/e2e"
  umount "$MNT"
  send default-done && recv async-ready 900 || return 0
  nfs_mount && bench "nfs-project-async" "$MNT/e2e"
  umount "$MNT"
  send finished
}
