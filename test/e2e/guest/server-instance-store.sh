# shellcheck shell=bash
# shellcheck disable=SC2034 # SCEN is read by the result helpers in common.sh
# Server stages of the instance-store scenarios, 1 to 5. server.sh, beside it on the control disk, sources it
# for its helpers and variables.

# Scenario 1: three blank instance-store disks on first boot.
server_fresh() {
  first_boot instance-store
  check_eq "the apply succeeds (what the association reports)" "$(apply_rc)" 0
  check_has "the apply prints the bootstrap's log" "$(cat "$STATE/apply.log")" "export live: $EXPORT"
  check "the unit is enabled for every boot" systemctl is-enabled -q storage-bootstrap.service
  check_eq "the unit is active (oneshot, remains after exit)" "$(unit_result)" "active success"
  check_has "the bootstrap logs to the journal" "$(boot_journal)" "export live: $EXPORT"
  check_layout --luks /dev/xvdb /dev/xvdc /dev/xvdd
  check_has "it encrypted the array it made" "$(cat "$STATE/apply.log")" "encrypting $LVDEV with LUKS2 (aes-xts-plain64"
  check_export sync
  check_nfsd 16 "-3 +4 -4.0 +4.1 +4.2"
  fs_uuid >"$STATE/fs-uuid"
  cryptsetup luksUUID "$LVDEV" >"$STATE/luks-uuid"
  head -c 3M /dev/urandom >"$EXPORT/.canary"
  # Plain text the host must not find on the disks: run.sh reads their images after this boot.
  yes "$PLAINTEXT_MARKER" | head -c 4M >"$EXPORT/.plaintext"
  sync
  sha256sum "$EXPORT/.canary" "$EXPORT/.plaintext" >"$STATE/canary.sha"
  make_client_dir
  send ready && recv finished 600
}

# Scenarios 2 and 3: the export comes back by itself after a reboot; a re-run by hand changes nothing.
server_reboot() {
  local before after out rc
  check_eq "the unit ran at boot and succeeded" "$(unit_result)" "active success"
  check_has "this boot's journal shows the export live" "$(boot_journal)" "export live: $EXPORT"
  check_has "it opened the encrypted array with its key" "$(boot_journal)" \
    "opening the encrypted array (LUKS $(cat "$STATE/luks-uuid")) with its key $KEYS/$(cat "$STATE/luks-uuid").key"
  check_eq "the same file system is mounted (not reformatted)" "$(fs_uuid)" "$(cat "$STATE/fs-uuid")"
  check "the server's own files are intact (checksums)" sha256sum -c "$STATE/canary.sha"
  check_layout --luks /dev/xvdb /dev/xvdc /dev/xvdd
  check_export sync
  check_nfsd 16 "-3 +4 -4.0 +4.1 +4.2"
  SCEN='metrics'
  check_metrics live
  SCEN=reboot
  send ready && recv verified 600 || return 0

  SCEN=rerun
  before=$(sha256sum /etc/fstab /etc/exports.d/storage-server.exports /etc/nfs.conf
    systemctl show -p ActiveEnterTimestampMonotonic nfs-server.service)
  out=$("$BOOTSTRAP" 2>&1 && "$BOOTSTRAP" 2>&1)
  rc=$?
  awk '{ print "by hand: " $0 }' <<<"$out"
  check_eq "running the bootstrap by hand twice succeeds" "$rc" 0
  check "it makes no volume group, LV or file system" lacks "$out" "creating volume group"
  check "it runs no mkfs" lacks "$out" "making XFS"
  check "it encrypts nothing anew" lacks "$out" "encrypting"
  after=$(sha256sum /etc/fstab /etc/exports.d/storage-server.exports /etc/nfs.conf
    systemctl show -p ActiveEnterTimestampMonotonic nfs-server.service)
  check_eq "fstab, exports and nfs.conf are unchanged and nfs-server was not restarted" "$after" "$before"
  check_eq "the same file system is mounted" "$(fs_uuid)" "$(cat "$STATE/fs-uuid")"
  check "the canary file is intact" sha256sum -c "$STATE/canary.sha"
  check_export sync
  send rerun-done && recv remount-done 600 || return 0
  live_settings
}

# Day 2 on a running server: the apply path run twice changes nothing. Then a changed client CIDR and nfsd
# thread count are applied live: no reboot, no restart of nfs-server, the data file system never unmounted.
# Then the old settings are applied back, as a CloudFormation rollback would.
live_settings() {
  local boot mount nfsd
  SCEN=reapply
  reapply_twice instance-store
  SCEN=live
  boot=$(cat /proc/sys/kernel/random/boot_id) mount=$(mount_id)
  nfsd=$(systemctl show -p ActiveEnterTimestampMonotonic nfs-server.service)
  apply instance-store-live
  check_eq "the apply of the new client CIDR and thread count succeeds" "$(apply_rc)" 0
  check_export sync 192.168.77.192/28
  check_nfsd 24 "-3 +4 -4.0 +4.1 +4.2"
  check_eq "applied without a reboot" "$(cat /proc/sys/kernel/random/boot_id)" "$boot"
  check_eq "the data file system was never unmounted (same mount)" "$(mount_id)" "$mount"
  check_eq "nfs-server was not restarted (threads changed live)" \
    "$(systemctl show -p ActiveEnterTimestampMonotonic nfs-server.service)" "$nfsd"
  check "the canary file is intact" sha256sum -c "$STATE/canary.sha"
  check_quotas
  send live-applied && recv live-checked 600 || return 0
  apply instance-store
  check_eq "the old settings apply back" "$(apply_rc)" 0
  check_export sync
  check_nfsd 16 "-3 +4 -4.0 +4.1 +4.2"
  SCEN=quotas
  check "the limits are lifted with the settings that had them: uid 1001 takes 1100 MiB" as_uid 1001 fallocate -l 1100M "$EXPORT/quota-test/u1001"
  rm -rf "$EXPORT/quota-test" "$EXPORT/projects"
  SCEN=live
  check_eq "the data file system is still the same mount" "$(mount_id)" "$mount"
  send restored && recv finished 600
}

# XFS quotas of the live settings (issue 46, item 1): uid 1001 limited to 1 GiB, every other user to the default 2 GiB,
# project 42 (/projects/p42, made by the apply) to 1 GiB. fallocate takes blocks without writing them; the write past a
# limit is a real write. Then the usage report the README gives lists the users.
as_uid() { local uid=$1 && shift && setpriv --reuid="$uid" --regid="$uid" --clear-groups "$@"; }
check_quotas() {
  local q=$EXPORT/quota-test p=$EXPORT/projects/p42 report
  SCEN=quotas
  check_has "mounted with user, group and project quotas" ",$(findmnt -nro OPTIONS --mountpoint "$EXPORT")," ",usrquota,"
  check "the apply made the project's directory" test -d "$p"
  check_eq "the project's directory is in project 42" "$(xfs_io -c lsproj "$p" | sed -n 's/^projid = //p')" 42
  mkdir -p "$q" && chmod 1777 "$q" "$p"
  check "uid 1001 takes 1000 MiB of its 1 GiB" as_uid 1001 fallocate -l 1000M "$q/u1001"
  check_has "uid 1001's write past its limit fails with EDQUOT" \
    "$(as_uid 1001 dd if=/dev/zero of="$q/u1001-more" bs=1M count=40 conv=fsync 2>&1)" "Disk quota exceeded"
  check "uid 1002, no limit of its own, takes 1500 MiB under the default 2 GiB" as_uid 1002 fallocate -l 1500M "$q/u1002"
  check_has "uid 1002's write past the default fails with EDQUOT" \
    "$(as_uid 1002 dd if=/dev/zero of="$q/u1002-more" bs=1M count=600 conv=fsync 2>&1)" "Disk quota exceeded"
  check "uid 1003 takes 1000 MiB in project 42" as_uid 1003 fallocate -l 1000M "$p/u1003"
  # XFS fails a write past a project's limit with ENOSPC, not EDQUOT: the tree is full (fs/xfs/xfs_trans_dquot.c).
  check_has "uid 1003's write past project 42's 1 GiB fails with ENOSPC" \
    "$(as_uid 1003 dd if=/dev/zero of="$p/u1003-more" bs=1M count=40 conv=fsync 2>&1)" "No space left on device"
  rm -f "$q"/*-more "$p"/*-more
  # The README's usage report, fullest first.
  report=$(xfs_quota -x -c 'report -u -b -n -N' "$EXPORT" | sort -k2,2nr)
  info "usage report: $(tr -s ' \n' ' ' <<<"$report")"
  check_eq "the usage report lists uid 1002 (1500 MiB) before uid 1001 (1000 MiB)" \
    "$(awk '$1 == "#1002" || $1 == "#1001" { printf "%s ", $1 }' <<<"$report")" "#1002 #1001 "
  check_eq "the usage report gives uid 1001's use and hard limit in KiB" \
    "$(awk '$1 == "#1001" { print $2, $4 }' <<<"$report")" "1024000 1048576"
  check_has "the project report lists project 42" "$(xfs_quota -x -c 'report -p -b -n -N' "$EXPORT")" "#42 "
  SCEN=live
}

# Scenario 5: after a stop/start the instance-store disks are new and blank; the boot rebuilds and exports.
# Here they are Nitro NVMe instance store, found by model, beside an NVMe EBS volume that must not be taken.
server_stop_start() {
  local d is=() journal ebs old
  for d in B C D; do is+=("$(nvme_serial AWS0E2E00000000000$d)"); done
  journal=$(boot_journal)
  check_eq "the harness presents EC2's instance-store model on the three disks (the image's e2e-nvme-models)" \
    "$(for d in "${is[@]}"; do cat "/sys/block/${d#/dev/}/device/model"; done | sort | uniq -c | xargs)" \
    "3 Amazon EC2 NVMe Instance Storage"
  check_eq "the unit ran at boot and succeeded" "$(unit_result)" "active success"
  check_has "it found three blank disks and built afresh" "$journal" "all 3 data disks are blank"
  check_has "it took exactly the NVMe instance-store disks, by their model" "$journal" \
    "data disks: ${is[0]} (NVMe instance store) ${is[1]} (NVMe instance store) ${is[2]} (NVMe instance store)"
  check "a new file system replaces the lost one" test "$(fs_uuid)" != "$(cat "$STATE/fs-uuid")"
  refute "the old canary is gone with the old disks" test -e "$EXPORT/.canary"
  check_layout --luks "${is[@]}"
  check_eq "the benchmark's scratch directory: root's, 1777 (the nodes' root is squashed)" \
    "$(stat -c '%U %a' "$EXPORT/.storage-bench")" "root 1777"
  old=$(cat "$STATE/luks-uuid")
  check_has "the old array's key was removed with it" "$journal" \
    "removing the key $KEYS/$old.key: the array it opened is gone with its disks"
  refute "the old key is gone from the root volume" test -e "$KEYS/$old.key"
  check "the new array has a new LUKS UUID (and so a new key)" test "$(cryptsetup luksUUID "$LVDEV")" != "$old"
  ebs=$(nvme_serial vol0e2e0000000000031)
  check "the EBS volume beside them is attached" test -b "$ebs"
  check_eq "the EBS volume beside them holds nothing" "$(wipefs --noheadings "$ebs" | wc -l)" 0
  check_export sync
  check_nfsd 16 "-3 +4 -4.0 +4.1 +4.2"
  make_client_dir
  send ready && recv finished 600 || return 0
  luks_refusals
  is_missing_by_hand
}

# stop_serving: nfs-server and nfsdcld stopped, the data file system unmounted, the mapping closed: the state of
# a boot before the bootstrap has run.
stop_serving() {
  systemctl stop nfs-server.service nfsdcld.service 2>/dev/null || true
  umount "$EXPORT" && cryptsetup close "${CRYPTDEV##*/}"
}
# header_hash: the LV's first 32 MiB, the LUKS2 header and the start of the data.
header_hash() { head -c 32M "$LVDEV" | sha256sum; }

# refused_by_hand <why>: the bootstrap run by hand fails naming <why>, and the LV's header and data are unchanged.
refused_by_hand() {
  local before out rc
  before=$(header_hash)
  out=$("$BOOTSTRAP" 2>&1)
  rc=$?
  awk '{ print "by hand: " $0 }' <<<"$out"
  check "the bootstrap fails" test "$rc" != 0
  check_has "naming why" "$out" "$1"
  check_eq "the LV's header and data are unchanged" "$(header_hash)" "$before"
}

# Scenario 5c, once the client is done with the array of scenario 5: what the bootstrap refuses on an LV of its
# own volume group. Its key missing from the root volume: refused, nothing written. The key back: opened and
# served again. Then a LUKS header it did not make, with another label: refused, nothing written.
luks_refusals() {
  local uuid out
  SCEN='luks-no-key'
  uuid=$(cryptsetup luksUUID "$LVDEV")
  check "stop serving and close the array" stop_serving
  mv "$KEYS/$uuid.key" /root/held.key
  refused_by_hand \
    "$LVDEV is encrypted (LUKS $uuid) and its key $KEYS/$uuid.key is not on this server's root volume: cannot open it, nothing was written"
  refute "nothing is mounted" mountpoint -q "$EXPORT"
  SCEN='metrics-down'
  check_metrics down
  SCEN='luks-no-key'
  mv /root/held.key "$KEYS/$uuid.key"
  out=$("$BOOTSTRAP" 2>&1)
  check_has "with its key back the array opens and is served again" "$out" "export live: $EXPORT"
  check_eq "on the same file system" "$(findmnt -nro SOURCE --mountpoint "$EXPORT")" "$CRYPTDEV"

  SCEN='luks-foreign'
  check "stop serving and close the array" stop_serving
  check "another tool's LUKS header on the LV" bash -c "printf other | cryptsetup luksFormat --batch-mode --type luks2 \
    --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --label someone-else --key-file - $LVDEV"
  refused_by_hand \
    "$LVDEV holds LUKS (label 'someone-else') that this bootstrap did not make: not opening it, nothing was written"
  check_eq "the key of the array stays (the disks still hold that array's volume group)" "$(ls "$KEYS")" "$uuid.key"
}

# wait_swapped <serials gone...> -- <serials come...>: waits at most 180 s for the host's hot-unplug and
# hot-plug of NVMe disks. Then it has the image's seam present EC2's model on the new ones, as EC2 does from
# the start.
swapped() {
  local gone=1 s
  for s; do
    if [[ $s == -- ]]; then gone=0; continue; fi
    if ((gone)); then [[ -z $(nvme_serial "$s") ]] || return 1; else [[ -n $(nvme_serial "$s") ]] || return 1; fi
  done
}
wait_swapped() {
  local end=$((SECONDS + 180))
  until swapped "$@" 2>/dev/null || ((SECONDS >= end)); do sleep 1; done
  check "the host's swap is done: $* (- gone, then come)" swapped "$@"
  /usr/local/lib/e2e/nvme-models.sh
}

# Scenario 5b, by hand after 5c: two of the type's three NVMe instance-store disks have appeared. The host
# swaps the three for two blank ones, as a stop/start that brought only two would. The unit, run again as at
# boot, waits for the count the block device mapping gives, then fails, and builds nothing on the two it sees.
# The state before it is a boot's: nothing served, nothing mounted, the mapping closed, the VG inactive.
is_missing_by_hand() {
  local journal start d
  SCEN='is-missing'
  check "stop serving and deactivate the volume group" bash -c "systemctl stop nfs-server.service nfsdcld.service
    ! mountpoint -q '$EXPORT' || umount '$EXPORT'
    [[ ! -e '$CRYPTDEV' ]] || cryptsetup close '${CRYPTDEV##*/}'
    vgchange -an $VG"
  info "swap-me: waiting for the host to replace the instance-store disks"
  wait_swapped AWS0E2E00000000000B AWS0E2E00000000000C AWS0E2E00000000000D -- AWS0E2E00000000000E AWS0E2E00000000000F
  check_eq "the harness presents EC2's instance-store model on the two new disks" \
    "$(for d in E F; do d=$(nvme_serial AWS0E2E00000000000$d); cat "/sys/block/${d#/dev/}/device/model"; done | sort | uniq -c | xargs)" \
    "2 Amazon EC2 NVMe Instance Storage"
  start=$(date +%s)
  systemctl restart storage-bootstrap.service
  journal=$(journalctl -u storage-bootstrap.service --since "@$start" -o cat --no-pager)
  check_eq "the unit failed" "$(systemctl show -p ActiveState --value storage-bootstrap.service)" failed
  check_has "it waited for the type's three instance-store disks" "$journal" \
    "waiting for instance-store NVMe disks: 2 of 3 present"
  check_has "it failed naming the count" "$journal" \
    "ERROR: not attached after waiting 60s: instance-store NVMe disks: 2 of 3 present"
  for d in E F; do
    d=$(nvme_serial AWS0E2E00000000000$d)
    check_eq "the instance-store disk $d holds nothing" "$(wipefs --noheadings "$d" | wc -l)" 0
  done
  refute "the data file system is not mounted, so nothing is exported" mountpoint -q "$EXPORT"
  send disks-missing && recv missing-checked 600
}

# Scenario 4: a blank disk next to disks with a foreign XFS, a foreign LVM volume group named like ours but
# without our tag, a partition table and someone's LUKS. Refuse, say why, report failure, write nothing.
server_foreign() {
  local reason journal
  first_boot foreign
  check "the apply reports failure" test "$(apply_rc)" != 0
  reason=$(apply_failure)
  journal=$(boot_journal)
  info "failure reason: $reason"
  check_has "the reason says nothing was written" "$reason" "nothing was written"
  check_has "the reason names the disk with XFS and why" "$reason" "$(readlink -f /dev/xvdc) (instance store /dev/sdc) holds xfs"
  check_has "the reason names the disk with foreign LVM" "$reason" "$(readlink -f /dev/xvdd) (instance store /dev/sdd) holds LVM"
  check_has "the reason names the disk with a partition table" "$reason" "$(readlink -f /dev/xvde) (instance store /dev/sde) holds gpt"
  check_has "the reason names the disk with someone's LUKS" "$reason" "$(readlink -f /dev/xvdf) (instance store /dev/sdf) holds crypto_LUKS"
  check_has "the journal carries the same reason" "$journal" "nothing was written"
  check_eq "the unit failed" "$(systemctl show -p ActiveState --value storage-bootstrap.service)" failed
  refute "the blank disk was left blank" blkid -p /dev/xvdb
  refute "no export was configured" test -e /etc/exports.d/storage-server.exports
  check_eq "nothing is exported" "$(exportfs -s)" ""
  check_eq "fstab was not touched" "$(grep -c "$EXPORT" /etc/fstab)" 0
  send ready && recv finished 600
}
