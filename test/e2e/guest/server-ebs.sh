# shellcheck shell=bash
# shellcheck disable=SC2034 # SCEN is read by the result helpers in common.sh
# Server stages of the EBS scenarios, 6 and later, the freeze and the benchmark. server.sh, beside it on the control
# disk, sources it for its helpers and variables.

# Scenario 6: two EBS volumes found by volume id, the NVMe serial, among decoys. The host attaches the
# second one only after the bootstrap has started waiting for it.
server_ebs() {
  local a b
  first_boot ebs
  check_eq "the apply succeeds" "$(apply_rc)" 0
  check_has "the bootstrap waited for the missing volume by id" "$(boot_journal)" \
    "waiting for EBS volume vol-0e2e0000000000002 (attached as /dev/sdg)"
  check_has "without instance metadata it leaves attaching to the host (storage-attach is proven against moto)" \
    "$(cat "$STATE/apply.log")" "no instance metadata (IMDSv2), curl or AWS CLI: not attaching"
  check "the apply installed storage-attach beside the bootstrap" test -x /usr/local/sbin/storage-attach
  a=$(nvme_serial vol0e2e0000000000001)
  b=$(nvme_serial vol0e2e0000000000002)
  check_layout "$a" "$b"
  # Each decoy must be there, and blank: a missing one would pass the blkid check by omission.
  for d in "$(nvme_serial vol0e2e0000000000003)" "$(nvme_serial vol0e2e000000000000)" "$(readlink -f /dev/disk/by-id/virtio-decoy)"; do
    check "decoy $d is attached" test -b "$d"
    refute "decoy $d is untouched" blkid -p "$d"
  done
  check_export async
  check_nfsd 12 "+3 +4 -4.0 +4.1 +4.2" # 3 vCPUs: 4 x 3
  blkid -s UUID -o value "$LVDEV" >"$STATE/fs-uuid"
  fs_bytes >"$STATE/fs-bytes"
  head -c 3M /dev/urandom >"$EXPORT/.canary" && sha256sum "$EXPORT/.canary" >"$STATE/canary.sha"
  # A copy of the checksum on the data itself, for the server that restores these disks later.
  (cd "$EXPORT" && sha256sum .canary >.canary.sha256)
  check_has "the volume group carries this server's identity" "$(vgs --noheadings -o vg_tags "$VG")" \
    "storage-server-id:e2e-ebs/storage1"
  make_client_dir
  send ready && recv written 600 || return 0
  freeze_scenario
  recv finished 600
}

# check_grown_at_boot <disks>: the boot's unit grew every physical volume, the LV over all of them, and XFS.
check_grown_at_boot() {
  local journal
  journal=$(boot_journal)
  check_eq "the unit ran at boot and succeeded" "$(unit_result)" "active success"
  check_eq "the boot grew the $1 physical volumes" "$(grep -c 'growing physical volume' <<<"$journal")" "$1"
  check_has "it extended the LV over all $1" "$journal" "on each of the $1 disks"
  check_has "and grew the XFS online" "$journal" "growing XFS on $EXPORT"
}

# Day 2 growth of a 2-volume stripe: the host enlarged both volumes from 1 to 2 GiB while the server was off,
# as an EBS modification of a stopped instance would. The boot grows PVs, LV and XFS by itself. The apply of
# the stack's new sizes then finds nothing left to do, and re-applying changes nothing.
server_ebs_grow() {
  local a b
  check_grown_at_boot 2
  check_eq "the same file system is mounted (not reformatted)" "$(blkid -s UUID -o value "$LVDEV")" "$(cat "$STATE/fs-uuid")"
  check "the file system is larger than before" test "$(fs_bytes)" -gt "$(cat "$STATE/fs-bytes")"
  check "it fills the grown stripe (at least 3.5 GiB of 2 x 2 GiB)" test "$(fs_bytes)" -ge 3758096384
  check "the server's canary file is intact" sha256sum -c "$STATE/canary.sha"
  a=$(nvme_serial vol0e2e0000000000001)
  b=$(nvme_serial vol0e2e0000000000002)
  check_layout "$a" "$b"
  apply ebs-grown
  check_eq "the apply of the stack's new sizes succeeds" "$(apply_rc)" 0
  check "and finds nothing left to grow" lacks "$(cat "$STATE/apply.log")" "growing"
  SCEN=reapply
  reapply_twice ebs-grown
  SCEN=$STAGE
  send ready && recv grown-checked 600 || return 0
  replaced_server
}

# The server about to be replaced: it keeps its NFSv4 state where a replacement finds it. nfsd runs in the
# server's scope, its identity rather than this host's name. nfsdcld records the clients that hold state on
# the data file system. Then it shuts down while a client writes: the stage's end powers the VM off.
replaced_server() {
  local cld=$EXPORT/.storage-server/nfsdcld
  SCEN=replace
  check_has "nfs-server starts nfsd in the server's scope, its identity (systemd drop-in)" \
    "$(systemctl cat nfs-server.service 2>&1)" "exec /usr/sbin/rpc.nfsd' 'e2e-ebs/storage1'"
  check_eq "the state directory on the data file system is root's only" "$(stat -c '%U %a' "$EXPORT/.storage-server")" "root 700"
  check_eq "nfsdcld is configured to keep its records there" "$(nfsconf --get nfsdcld storagedir)" "$cld"
  check "nfsdcld made its database there" test -s "$cld/main.sqlite"
  send replace-ready && recv writing 600 || return 0
  check "the client holding the file is recorded in that database" grep -aq 'Linux NFSv4.1' "$cld/main.sqlite"
  info "shutting down while the client writes, as EC2 stops an instance for its replacement"
}

# The replacement: a new instance with the same volumes and address. Its new root disk runs the loader user
# data, then the apply, as at a first boot. EC2 gives each instance its own host name; so does this stage.
server_replace() {
  local a b log
  echo ip-192-168-77-99 >/proc/sys/kernel/hostname
  first_boot ebs-grown
  log=$(cat "$STATE/apply.log")
  check_eq "the replacement's apply succeeds" "$(apply_rc)" 0
  check "it makes no volume group, LV or file system" lacks "$log" "creating volume group"
  check "it runs no mkfs" lacks "$log" "making XFS"
  check "it adopts nothing: the array is this server's own" lacks "$log" "adopting"
  check_has "it stopped the image's nfs-server before the address arrived" "$log" "stopping nfs-server until it serves"
  a=$(nvme_serial vol0e2e0000000000001)
  b=$(nvme_serial vol0e2e0000000000002)
  check_layout "$a" "$b"
  check "the old server's canary file is intact" bash -c "cd '$EXPORT' && sha256sum -c .canary.sha256"
  check_export async
  check_has "nfsd runs in the same scope as the server it replaces" "$(systemctl cat nfs-server.service 2>&1)" \
    "exec /usr/sbin/rpc.nfsd' 'e2e-ebs/storage1'"
  send ready && recv finished 1200 || return 0
  ebs_missing_by_hand
}

# Scenario 6, second half, by hand on the replacement once its client is done. With volume 2 detached, the
# apply waits the configured 40 s for it, then fails naming the volume id, and brings up nothing on volume 1
# alone. The state before the apply is a boot's before the bootstrap: nothing served, nothing mounted, the VG
# inactive.
ebs_missing_by_hand() {
  local end=$((SECONDS + 180)) log start t0 t1
  SCEN='ebs-missing'
  check "stop serving, unmount the export and deactivate the volume group" bash -c \
    "systemctl stop nfs-server.service nfsdcld.service; umount '$EXPORT' && vgchange -an $VG"
  info "detach-me: waiting for the host to detach volume 2"
  while [[ -n $(nvme_serial vol0e2e0000000000002) ]] && ((SECONDS < end)); do sleep 1; done
  check "volume 2 is gone (the host detached it)" test -z "$(nvme_serial vol0e2e0000000000002)"
  check "volume 1 is still attached" test -b "$(nvme_serial vol0e2e0000000000001)"
  start=$(date +%s)
  apply ebs-grown
  log=$(cat "$STATE/apply.log")
  check "the apply fails (what the association reports)" test "$(apply_rc)" != 0
  check_has "it waited for the volume by id" "$log" "waiting for EBS volume vol-0e2e0000000000002"
  check_has "it failed naming the volume id" "$log" \
    "ERROR: not attached after waiting 40s: EBS volume vol-0e2e0000000000002 (attached as /dev/sdg)"
  # The apply restarts the unit and prints its journal at the end: the journal's clock times the wait.
  t0=$(journalctl -u storage-bootstrap.service --since "@$start" -o short-unix --no-pager | awk '/waiting for EBS/ { print int($1); exit }')
  t1=$(journalctl -u storage-bootstrap.service --since "@$start" -o short-unix --no-pager | awk '/ERROR: not attached/ { print int($1); exit }')
  check "it waited the configured 40 s before failing" test "$((${t1:-0} - ${t0:-0}))" -ge 39
  refute "the data file system is not mounted, so the export (mp) is not served" mountpoint -q "$EXPORT"
  check "the present volume's LV was not activated" bash -c "! lvs --noheadings -o lv_active $VG 2>/dev/null | grep -q active"
  send volume-missing && recv missing-checked 600
}

# Day 2 growth of a single volume, live. One EBS volume is found by its Xen attachment name, /dev/sdf
# showing as /dev/xvdf, with a client mounted and writing. The host enlarges the disk of the running VM by
# qemu block_resize, as EBS does for an in-use volume. The apply of the new size grows PV, LV and XFS
# without an unmount.
server_ebs_xen() {
  local mount before end=$((SECONDS + 120))
  first_boot ebs-xen
  check_eq "the apply succeeds" "$(apply_rc)" 0
  check_layout /dev/xvdf
  check_eq "the root client is listed first, no_root_squash, then the client CIDR, root squashed" \
    "$(exportfs -s | awk -v p="$EXPORT" '$1 == p { for (i = 2; i <= NF; i++) print $i }' | grep -oE '^[0-9./]+|,?(no_)?root_squash' | paste -sd' ')" \
    "192.168.77.10/32 ,no_root_squash 192.168.77.0/28 ,root_squash"
  check_has "the volume was found by its attachment name" "$(cat "$STATE/apply.log")" "(EBS volume vol-0e2e0000000000009)"
  head -c 3M /dev/urandom >"$EXPORT/.canary" && sha256sum "$EXPORT/.canary" >"$STATE/canary.sha"
  make_client_dir
  send ready && recv written 600 || return 0
  mount=$(mount_id) before=$(fs_bytes)
  info "grow-me: waiting for the host to enlarge /dev/xvdf"
  until (($(blockdev --getsize64 /dev/xvdf) >= 2147483648)) || ((SECONDS >= end)); do sleep 1; done
  check "the running server sees the enlarged disk" test "$(blockdev --getsize64 /dev/xvdf)" -ge 2147483648
  apply ebs-xen-grown
  check_eq "the apply of the new size succeeds" "$(apply_rc)" 0
  check_export sync
  check_has "it grew the physical volume" "$(cat "$STATE/apply.log")" "growing physical volume $(readlink -f /dev/xvdf)"
  check "the file system is larger than before" test "$(fs_bytes)" -gt "$before"
  check "it fills the grown volume (at least 1.9 GiB)" test "$(fs_bytes)" -ge 2040109465
  check_eq "the data file system was never unmounted (same mount)" "$(mount_id)" "$mount"
  check "the server's canary file is intact" sha256sum -c "$STATE/canary.sha"
  SCEN=reapply
  reapply_twice ebs-xen-grown
  SCEN=$STAGE
  send grown && recv finished 600
}

# Growth by added volumes (issue 46): three volumes striped, then, while the client writes, three more, which the
# apply of six adds as a second segment of the same LV, three wide, and XFS grows into, mounted all along.
server_ebs_add() {
  local d mount before added=() end=$((SECONDS + 180))
  first_boot ebs-add
  check_eq "the apply succeeds" "$(apply_rc)" 0
  check_layout "$(nvme_serial vol0e2e0000000000021)" "$(nvme_serial vol0e2e0000000000022)" "$(nvme_serial vol0e2e0000000000023)"
  head -c 3M /dev/urandom >"$EXPORT/.canary" && sha256sum "$EXPORT/.canary" >"$STATE/canary.sha"
  make_client_dir
  send ready && recv writing 600 || return 0
  mount=$(mount_id) before=$(fs_bytes)
  info "add-me: waiting for the host to attach three volumes"
  until (($(for d in 4 5 6; do nvme_serial "vol0e2e000000000002$d"; done | wc -l) == 3)) || ((SECONDS >= end)); do sleep 1; done
  for d in 4 5 6; do added+=("$(nvme_serial "vol0e2e000000000002$d")"); done
  check_eq "the running server sees the three added volumes" "${#added[@]}" 3
  apply ebs-added
  check_eq "the apply of six volumes succeeds" "$(apply_rc)" 0
  check_has "it added the three to the volume group as a segment striped three wide" "$(cat "$STATE/apply.log")" \
    "to volume group $VG, a new segment of 3 disk(s) striped 3 wide"
  check_eq "the LV has two segments, each striped over three volumes" \
    "$(lvs --noheadings --segments -o stripes "$VG/$LV" | tr -d ' ' | paste -sd' ')" "3 3"
  check_eq "the second segment is on the added volumes, in their order" \
    "$(lvs --noheadings --segments -o devices "$VG/$LV" | sed -n 2p | sed 's/([0-9]*)//g; s/ //g')" "$(IFS=,; echo "${added[*]}")"
  check "the file system is larger than before" test "$(fs_bytes)" -gt "$before"
  check "it fills the six volumes (at least 5.5 GiB)" test "$(fs_bytes)" -ge 5905580032
  check_eq "the data file system was never unmounted (same mount)" "$(mount_id)" "$mount"
  check "the server's canary file is intact" sha256sum -c "$STATE/canary.sha"
  # The client checks its writer is still writing now, while the re-applies run.
  send grown || return 0
  SCEN=reapply
  reapply_twice ebs-added
  SCEN=$STAGE
  recv finished 600 || return 0
  copy_source
}

# The copy (issue 46), this server its source: deployed again with the copying node as a root client, as README's
# "Moving data" says, the tree written on its own file system. The growth's files go first: copied through qemu's
# wire at a few MB/s, they would only slow the run.
copy_source() {
  SCEN=copy-source
  apply copy-source
  check_eq "the apply with the node as a root client succeeds" "$(apply_rc)" 0
  rm -rf "${EXPORT:?}/e2e" "$EXPORT/.canary"
  check "the tree on the source's own file system: hard links, a sparse file, an ACL, an xattr, a foreign owner" \
    copy_tree "$EXPORT"
  copy_manifest "$EXPORT" | sed 's/^/E2E INFO copy-source: manifest: /'
  info "copy-me: waiting for the host to boot the target server"
  send "source-ready $(copy_manifest_hash "$EXPORT")" 600 || return 0
  recv changed 900 || return 0
  copy_manifest_hash "$EXPORT" >"$STATE/copy-manifest" # for the boot after its volumes grew
  send "source-changed $(cat "$STATE/copy-manifest")" || return 0
  recv copy-finished 900
}

# The copy's target: a second server on the second wire, first deployed as any server is, root squashed for every
# client, then again with the copying node as a root client. What the copy made is checked on its own file system.
server_copy_target() {
  local t=$EXPORT want
  first_boot copy-target
  check_eq "the apply succeeds" "$(apply_rc)" 0
  send target-ready 600 && recv refused 900 || return 0
  check_eq "the refused copy wrote nothing on the target's file system" \
    "$(find "$t" -mindepth 1 -maxdepth 1 ! -name .storage-server ! -name .storage-bench -printf '%P ')" ""
  apply copy-target-root
  check_eq "the apply with the node as a root client succeeds" "$(apply_rc)" 0
  send root-ready && want=$(recv_any copied 900) || return 0
  copy_manifest "$t" | sed 's/^/E2E INFO copy-target: manifest: /'
  check_eq "on the target's own file system, every file, owner, mode and content as on the source's" \
    "$(copy_manifest_hash "$t")" "$want"
  check_eq "the hard link across two top-level entries is one inode" "$(stat -c %i "$t/a/f")" "$(stat -c %i "$t/b/link")"
  check "the sparse file holds under 1 MiB of its 16 MiB" bash -c "(( \$(du -k '$t/b/sparse' | cut -f1) < 1024 ))"
  check_has "the ACL" "$(getfacl -p "$t/a/f" 2>&1)" user:1234:rw-
  check_eq "the xattr" "$(cd "$t" && getfattr --only-values -n user.tag b/c 2>&1)" blue
  check_eq "the owner as numbers" "$(stat -c %u:%g "$t/b/c")" 2000:3000
  check_eq "the copy's marker names the source" "$(cat "$t/.storage-copy" 2>&1)" "from e2e-add/storage1"
  send verified && want=$(recv_any copied-again 900) || return 0
  check_eq "after a catch-up run, on the target's own file system, everything as on the source's" \
    "$(copy_manifest_hash "$t")" "$want"
  check_eq "and the changed and the added file are there" "$(tail -c 5 "$t/d3/data"),$(cat "$t/d5/new" 2>&1)" "more,new"
  send verified-again && recv copy-finished 900
}

# The ebs-add server stopped, each of its six volumes enlarged 1 -> 2 GiB, started: the boot grows the LV, by now two
# segments striped three wide, into the extents free on all six, and XFS into it. Offline, as qemu 7.2's NVMe refuses
# a live block_resize ("permissions 'resize' ... unshared").
server_ebs_add_grown() {
  check_grown_at_boot 6
  info "the LV's segments: $(lvs --noheadings --segments -o seg_size,stripes,devices "$VG/$LV" | tr -s ' ' | paste -sd';')"
  check_eq "no volume keeps a free extent" "$(pvs --noheadings -o pv_free --units b --nosuffix | tr -d ' ' | sort -u)" 0
  check "the file system fills the six enlarged volumes (at least 11.5 GiB)" test "$(fs_bytes)" -ge 12348030976
  check_eq "the copy's tree is intact, by its manifest" "$(copy_manifest_hash "$EXPORT")" "$(cat "$STATE/copy-manifest")"
  apply ebs-added-grown
  check_eq "the apply of the stack's new sizes succeeds" "$(apply_rc)" 0
  check "and finds nothing left to grow" lacks "$(cat "$STATE/apply.log")" "growing"
  send ready && recv finished 600
}

# Restore: a new server whose volumes were restored from snapshots. First it is given one disk of the
# instance-store server's array and one of the Xen server's: two arrays, two server identities. They are
# refused, naming both, with nothing written; the host checks every byte. Then come the EBS server's two
# disks, restored whole, at the next boot as after a redeploy with the right snapshots: adopted, the data
# intact.
server_restore_mixed() {
  local reason
  first_boot restore-mixed
  check "the apply of a mixture of two servers' arrays fails" test "$(apply_rc)" != 0
  reason=$(apply_failure)
  info "failure reason: $reason"
  check_has "the reason says it refuses more than one array and wrote nothing" "$reason" \
    "refusing disks of more than one array (snapshots of different servers or sets?), nothing was written"
  check_has "the reason names the instance-store server's disk" "$reason" "of server e2e-is/storage1"
  check_has "the reason names the Xen server's disk" "$reason" "of server e2e-xen/storage1"
  refute "nothing is mounted at the export path" mountpoint -q "$EXPORT"
  check_eq "nothing is exported" "$(exportfs -s)" ""
  send ready && recv finished 600 || return 0
  restore_own_by_hand
}
# Then by hand: the host swaps the mixture for the EBS server's two disks, restored whole, as a redeploy with
# the right snapshots would attach. The apply of that server's settings adopts them, the data intact.
restore_own_by_hand() {
  SCEN='restore-own'
  # As at a boot with only the new disks, nothing of the refused ones is active; both held a VG named like ours.
  check "nothing of the refused disks is active" bash -c "vgchange -an >/dev/null 2>&1; ! dmsetup ls | grep -q '^$VG-'"
  info "swap-me: waiting for the host to replace the restored disks"
  wait_swapped vol0e2e0000000000011 vol0e2e0000000000012 -- vol0e2e0000000000013 vol0e2e0000000000014
  apply restore-own
  check_eq "the apply of the EBS server's own array, restored whole, succeeds" "$(apply_rc)" 0
  check_has "it adopts the restored array as this server's" "$(cat "$STATE/apply.log")" \
    "adopting the array of e2e-ebs/storage1, restored from its snapshots, as e2e-restored/storage2"
  check "it makes no volume group or file system" lacks "$(cat "$STATE/apply.log")" "creating volume group"
  check_eq "the volume group now carries this server's identity only" \
    "$(vgs --noheadings -o vg_tags "$VG" | tr -d ' ' | tr ',' '\n' | grep '^storage-server-id:')" \
    "storage-server-id:e2e-restored/storage2"
  check "the EBS server's canary file is intact on the restored array" bash -c "cd '$EXPORT' && sha256sum -c .canary.sha256"
  check_has "the restored array is exported" "$(exportfs -s)" "$EXPORT"
  send own-ready && recv own-finished 600
}


# Scenario 7: the snapshot freeze script, lib/scripts/snapshot-freeze.sh run as DLM's SSM document would,
# blocks writes, local and over NFS, until the post-script thaws the file system.
freeze_scenario() {
  local freeze=$CTL/scripts/snapshot-freeze.sh writer
  SCEN=freeze
  if [[ ! -f $freeze ]]; then
    # A scenario whose script is missing is a failure, never a pass by omission.
    fail "lib/scripts/snapshot-freeze.sh is missing from the run: scenario 7 cannot run"
    send no-freeze
    return
  fi
  check "dry-run finds a freezable XFS" bash "$freeze" dry-run "$EXPORT" 60
  check "pre-script freezes the file system" bash "$freeze" pre-script "$EXPORT" 60
  timeout 90 dd if=/dev/urandom of="$EXPORT/e2e/frozen-local.bin" bs=64k count=16 conv=fsync status=none &
  writer=$!
  sleep 4
  check "a local write blocks while frozen" kill -0 "$writer"
  send frozen && recv client-blocked 120
  check "post-script thaws the file system" bash "$freeze" post-script "$EXPORT"
  wait_for "$writer" 30
  check_eq "the blocked local write completes after the thaw" "$?" 0
  check_eq "and wrote everything" "$(stat -c %s "$EXPORT/e2e/frozen-local.bin" 2>&1)" 1048576
  send thawed
}

# npm run bench:nfs: local throughput on the LV, then the client measures over NFS with the project's
# settings, with a distribution-default export, and with the project's settings but async.
server_bench() {
  first_boot bench
  check_eq "the apply succeeds" "$(apply_rc)" 0
  info "nfsd threads (project: min(256, max(8, 4 x $(nproc) vCPUs))): $(cat /proc/fs/nfsd/threads)"
  bench local "$EXPORT"
  make_client_dir
  send ready && recv tuned-done 900 || return 0
  # A distribution-default server: one plain exports line, nfs.conf's threads and versions untouched.
  for v in threads vers3 vers4 vers4.0 vers4.1 vers4.2; do nfsconf --unset nfsd "$v"; done
  echo "$EXPORT 192.168.77.0/28(rw)" >/etc/exports.d/storage-server.exports
  systemctl restart nfs-server
  info "distribution default: $(exportfs -v | tr -s '\n\t ' ' '); nfsd threads $(cat /proc/fs/nfsd/threads)"
  send default-ready && recv default-done 900 || return 0
  sed -i "s/^STORAGE_EXPORT_MODE=.*/STORAGE_EXPORT_MODE='async'/" /etc/storage-server/bootstrap.env
  check "the bootstrap re-applies the project's settings, now async" "$BOOTSTRAP"
  send async-ready && recv finished 900
}
