# shellcheck shell=bash
# shellcheck disable=SC2034 # SCEN is read by the result helpers in common.sh
# Server stages: one function per boot of a server VM. Each asserts what the bootstrap left behind, then
# serves its client VM through the hand-shake (ready -> ... -> done) before the VM powers off.

VG=storageserver
LV=data
LVDEV=/dev/$VG/$LV
BOOTSTRAP=/usr/local/sbin/storage-bootstrap
# The encrypted layout (instance store on d2): LUKS2 on the LV, XFS on this mapping, the key in KEYS.
CRYPTDEV=/dev/mapper/storageserver_data_crypt
KEYS=/etc/storage-server/keys
# Written into the encrypted export; the host then looks for it in the raw disk images (run.sh).
PLAINTEXT_MARKER=storage-server-e2e-plaintext-marker
as_bench() { "$@"; }

# First boot: what EC2 does with the user data (the constant loader), then what the SSM agent does for the
# server's State Manager association: run the apply document's shell step with /bin/sh, as root.
first_boot() {
  install -D -m 0700 "$CTL/userdata/loader.sh" /var/lib/cloud/instance/user-data.txt
  /var/lib/cloud/instance/user-data.txt >"$STATE/loader.log" 2>&1
  check_eq "the loader user data runs to its end" "$?" 0
  apply "$1"
}

# apply <scenario>: one run of the apply document's step; its output in $STATE/apply.log, its status in
# $STATE/apply.rc (what the association reports, and CloudFormation waits for).
apply() {
  info "applying the settings of scenario '$1'"
  sh "$CTL/userdata/$1.sh" >"$STATE/apply.log" 2>&1
  echo $? >"$STATE/apply.rc"
  sed 's/^/apply: /' "$STATE/apply.log"
  refute "the apply of '$1' prints no shell error" \
    grep -E 'syntax error|command not found|unbound variable|integer expression expected|bad substitution' "$STATE/apply.log"
}
apply_rc() { cat "$STATE/apply.rc"; }
apply_failure() { sed -n 's/^storage bootstrap failed (exit [0-9]*): //p' "$STATE/apply.log" | tail -n 1; }

# A fingerprint of everything a re-apply must leave alone: config files, nfs-server's start, the data mount.
settled_state() {
  sha256sum /etc/fstab /etc/exports.d/storage-server.exports /etc/nfs.conf
  systemctl show -p ActiveEnterTimestampMonotonic nfs-server.service
  mount_id
  blkid -s UUID -o value "$LVDEV"
  [[ ! -e $CRYPTDEV ]] || { cryptsetup luksDump "$LVDEV" && ls -l --time-style=+%s "$KEYS" && sha256sum "$KEYS"/*; }
  lvs --noheadings --units b -o lv_size "$VG/$LV"
  vgs --noheadings -o vg_seqno "$VG"
}
# nvme_serial <serial>: the NVMe disk whose controller has that serial, read from sysfs as EC2 shows it (not
# from /dev/disk/by-id, whose names carry the model, which the image's e2e-nvme-models presents as EC2's).
nvme_serial() {
  local b s
  for b in /sys/block/nvme*; do
    read -r s <"$b/device/serial" && [[ $s == "$1" ]] && echo "/dev/${b##*/}"
  done
  return 0
}
# The kernel's id of the data mount: a remount or an unmount in between would change it.
mount_id() { awk -v mp="$EXPORT" '$5 == mp { print $1 }' /proc/self/mountinfo; }
fs_bytes() {
  local bsize blocks
  read -r bsize blocks < <(xfs_info "$EXPORT" | sed -n 's/^data *= *bsize=\([0-9]*\) *blocks=\([0-9]*\),.*/\1 \2/p')
  echo $((bsize * blocks))
}

# reapply_twice <scenario>: the apply of an unchanged setting, twice, changes nothing.
reapply_twice() {
  local before out
  before=$(settled_state)
  apply "$1"
  out=$(cat "$STATE/apply.log")
  check_eq "re-applying the same settings succeeds" "$(apply_rc)" 0
  apply "$1"
  out+=$(cat "$STATE/apply.log")
  check_eq "re-applying them a second time succeeds" "$(apply_rc)" 0
  check "it makes no volume group, LV or file system" lacks "$out" "creating volume group"
  check "it grows nothing" lacks "$out" "growing"
  check_eq "fstab, exports, nfs.conf, nfs-server, the mount, the LV and the LVM metadata are unchanged" \
    "$(settled_state)" "$before"
}

# The device the data file system is on: the dm-crypt mapping of an encrypted array, or the LV.
fsdev() { if [[ -e $CRYPTDEV ]]; then echo "$CRYPTDEV"; else echo "$LVDEV"; fi; }
fs_uuid() { blkid -s UUID -o value "$(fsdev)"; }

# check_luks: the LV carries LUKS2 made by the bootstrap (its label, aes-xts-plain64, a 512-bit key, data at a
# whole stripe width), opened with the one key on the root volume, named by the LUKS UUID and root's only.
check_luks() {
  local dump uuid key offset width=$((256 * 1024 * $1))
  dump=$(cryptsetup luksDump "$LVDEV" 2>&1 | tr -s ' \t' '  ')
  uuid=$(cryptsetup luksUUID "$LVDEV" 2>/dev/null)
  key=$KEYS/$uuid.key
  check_has "the LV carries LUKS version 2" "$dump" "Version: 2"
  check_has "labelled as the bootstrap's" "$dump" "Label: storage-server-bootstrap"
  check_has "data cipher aes-xts-plain64" "$dump" "cipher: aes-xts-plain64"
  check_has "in 4096-byte sectors" "$dump" "sector: 4096 [bytes]"
  check_has "a 512-bit volume key" "$dump" " Key: 512 bits"
  offset=$(grep -o 'offset: [0-9]* \[bytes\]' <<<"$dump" | head -n 1 | tr -dc 0-9)
  check_eq "the encrypted data starts at a whole stripe width ($width bytes), past the 16 MiB header" \
    "$((${offset:-1} % width == 0 && ${offset:-1} >= 16777216))" 1
  check_eq "exactly one key on the root volume, named by the LUKS UUID" "$(ls "$KEYS")" "$uuid.key"
  check_eq "the key is 64 bytes, root's only (0400), in a directory of root's only (0700)" \
    "$(stat -c '%s %a %U' "$key") $(stat -c '%a %U' "$KEYS")" "64 400 root 700 root"
  check "the key opens the header" cryptsetup open --test-passphrase --key-file "$key" "$LVDEV"
  check_eq "the mapping is open on the LV" "$(readlink -f "$(cryptsetup status "${CRYPTDEV##*/}" | sed -n 's/^ *device: *//p')")" \
    "$(readlink -f "$LVDEV")"
}

# check_layout [--luks] <devices in stripe order...>: one LV over exactly these disks (encrypted with --luks),
# XFS aligned, fstab, mount.
check_layout() {
  local luks=0 n d want got uuid fstab dev=$LVDEV
  [[ $1 != --luks ]] || { luks=1 && dev=$CRYPTDEV && shift; }
  n=$#
  want=$(for d; do readlink -f "$d"; done | paste -sd' ')
  got=$(lvs --noheadings -o devices "$VG/$LV" 2>&1 | tr -d ' ' | tr ',' '\n' | sed 's/(.*//' | xargs -r readlink -f | paste -sd' ')
  check_eq "the LV spans exactly the data disks, in stripe order" "$got" "$want"
  if ((n > 1)); then
    check_eq "the LV is striped over $n disks" "$(lvs --noheadings -o segtype,stripes "$VG/$LV" | xargs)" "striped $n"
    check_eq "the stripe size is 256 KiB" "$(lvs --noheadings --units k -o stripe_size "$VG/$LV" | xargs)" 256.00k
    check_has "XFS is aligned to the stripe (su 256k = 64 blocks, sw $n)" "$(xfs_info "$EXPORT" 2>&1 | tr -s ' ')" \
      "sunit=64 swidth=$((64 * n)) blks"
  fi
  check_has "the volume group carries the bootstrap's tag" "$(vgs --noheadings -o vg_tags "$VG" 2>&1)" storage-server-bootstrap
  if ((luks)); then
    check_luks "$n"
  else
    check_eq "the LV holds XFS itself (unencrypted: EBS encrypts its volumes)" "$(blkid -p -s TYPE -o value "$LVDEV")" xfs
  fi
  uuid=$(blkid -s UUID -o value "$dev")
  fstab=$(awk -v mp="$EXPORT" '$1 !~ /^#/ && $2 == mp' /etc/fstab)
  check_eq "fstab mounts the file system by UUID with nofail, once" "$fstab" \
    "UUID=$uuid $EXPORT xfs defaults,nofail,x-systemd.before=nfs-server.service 0 0"
  check_eq "the XFS on $dev is mounted at the export path" "$(findmnt -nro SOURCE,FSTYPE --mountpoint "$EXPORT")" \
    "$( ((luks)) && echo "$CRYPTDEV" || echo "/dev/mapper/$VG-$LV") xfs"
}

# check_export <sync|async> [CIDR]: exported live to the client CIDR only, with the expected options.
check_export() {
  local line clients opts o
  line=$(exportfs -s | awk -v p="$EXPORT" '$1 == p')
  clients=$(awk '{ for (i = 2; i <= NF; i++) { sub(/\(.*/, "", $i); print $i } }' <<<"$line" | paste -sd' ')
  check_eq "exported live to the client CIDR ${2:-192.168.77.0/28} and nobody else" "$clients" "${2:-192.168.77.0/28}"
  opts=$(sed -n 's/^[^(]*(\(.*\))$/\1/p' <<<"$line")
  for o in rw "$1" root_squash no_subtree_check sec=sys; do check_has "export option $o" ",$opts," ",$o,"; done
  refute "no export is open to everyone" grep -q '[*]' /var/lib/nfs/etab
}

# check_nfsd <threads> <versions as /proc/fs/nfsd/versions shows them>
check_nfsd() {
  check_eq "nfsd runs $1 threads" "$(cat /proc/fs/nfsd/threads)" "$1"
  check_eq "nfsd serves exactly the configured NFS versions" "$(cat /proc/fs/nfsd/versions)" "$2"
}

# The test client writes as uid 1000 into a directory an administrator would create; the export root
# itself stays root's (root_squash).
make_client_dir() {
  mkdir -p "$EXPORT/e2e" && chown 1000:1000 "$EXPORT/e2e"
}

# statsd_lines: what one run of storage-metrics sends to the agent's StatsD listener, captured by a stand-in
# listener on 127.0.0.1:8125 (the CloudWatch agent is not packaged for Debian: its input is what is checked here).
# The listener says when it is bound and stops when told (after the oneshot run has ended), not after a fixed
# time: on a loaded host a fixed window missed the run.
statsd_lines() {
  local out=$STATE/statsd.lines ready=$STATE/statsd.ready stop=$STATE/statsd.stop pid
  rm -f "$ready" "$stop"
  python3 - "$out" "$ready" "$stop" <<'PY' &
import os, socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 8125))
s.settimeout(0.2)
open(sys.argv[2], "w").close()
end = time.time() + 300
with open(sys.argv[1], "w") as out:
    while time.time() < end:
        try:
            out.write(s.recv(4096).decode() + "\n")
            out.flush()
        except socket.timeout:
            if os.path.exists(sys.argv[3]):
                break
PY
  pid=$!
  for _ in $(seq 600); do [[ -e $ready ]] && break; sleep 0.1; done
  # A oneshot: start returns once the run has sent everything.
  systemctl start storage-metrics.service
  touch "$stop"
  wait "$pid"
  sort -u "$out"
}

# check_metrics <live|down>: the timer runs storage-metrics; one run's datagrams carry the heartbeat and the file
# system's figures only while the export is live (and mounted), nfsd's counters either way.
check_metrics() {
  local lines tags='#ClusterName:e2e,ServerName:storage1' used df
  lines=$(statsd_lines)
  info "StatsD: $(paste -sd' ' <<<"$lines")"
  check_has "nfsd's calls since the last run" "$lines" "|c|$tags"
  if [[ $1 == live ]]; then
    check "the storage-metrics timer is active" systemctl is-active -q storage-metrics.timer
    check_has "the heartbeat" "$lines" "export_live:1|g|$tags"
    used=$(sed -n "s/^disk_used_percent:\([0-9.]*\)|g|$tags\$/\1/p" <<<"$lines")
    df=$(df --output=pcent "$EXPORT" | tail -n 1 | tr -dc 0-9)
    check_eq "the data file system's used percent, as df counts it (df rounds up)" \
      "$(awk -v u="${used:-x}" -v d="$df" 'BEGIN { print (u != "x" && u <= d && u > d - 1) ? "match" : u " vs df " d }')" match
    check_has "its inodes used percent" "$lines" "disk_inodes_used_percent:"
    check_has "the bootstrap said the agent is missing (Debian)" "$(boot_journal)" \
      "WARNING: no CloudWatch agent on this server (amazon-cloudwatch-agent): its metrics are not published"
  else
    check "no heartbeat while the export is down" lacks "$lines" "export_live"
    check "nothing about the file system while it is not mounted" lacks "$lines" "disk_"
  fi
}

unit_result() { echo "$(systemctl show -p ActiveState --value storage-bootstrap.service) $(systemctl show -p Result --value storage-bootstrap.service)"; }
boot_journal() { journalctl -b -u storage-bootstrap.service -o cat --no-pager; }

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
  # Plain text the host must not find on the disks (run.sh reads their images after this boot).
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

# Day 2 on a running server: the apply path run twice changes nothing; then a changed client CIDR and nfsd
# thread count are applied live (no reboot, no restart of nfs-server, the data file system never
# unmounted); then the old settings are applied back, as a CloudFormation rollback would.
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
  send live-applied && recv live-checked 600 || return 0
  apply instance-store
  check_eq "the old settings apply back" "$(apply_rc)" 0
  check_export sync
  check_nfsd 16 "-3 +4 -4.0 +4.1 +4.2"
  check_eq "the data file system is still the same mount" "$(mount_id)" "$mount"
  send restored && recv finished 600
}

# Scenario 5: after a stop/start the instance-store disks are new and blank; the boot rebuilds and exports.
# Here they are Nitro NVMe instance store (found by model) beside an NVMe EBS volume that must not be taken.
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
# header_hash: the LV's first 32 MiB (the LUKS2 header and the start of the data).
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

# Scenario 5c (after the client is done with the array of scenario 5): what the bootstrap refuses on an LV of its
# own volume group. Its key missing from the root volume: refused, nothing written; the key back: opened and
# served again. Then a LUKS header it did not make (another label): refused, nothing written.
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

# wait_swapped <serials gone...> -- <serials come...>: waits (180 s at most) for the host's hot-unplug and
# hot-plug of NVMe disks, then has the image's seam present EC2's model on the new ones, as EC2 does from the
# start.
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

# Scenario 5b, by hand after 5c: two of the type's three NVMe instance-store disks have appeared (the host swaps
# the three for two blank ones, as a stop/start that brought only two would): the unit, run again as at boot,
# waits for the count the block device mapping gives, then fails, and builds nothing on the two it sees. The
# state before it is a boot's: nothing served, nothing mounted, the mapping closed, the VG inactive.
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

# Scenario 4: a blank disk next to disks with a foreign XFS, a foreign LVM volume group (named like ours,
# without our tag), a partition table and someone's LUKS: refuse, say why, report failure, write nothing.
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

# Scenario 6: two EBS volumes found by volume id (NVMe serial) among decoys; the second one is attached
# by the host only after the bootstrap has started waiting for it.
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
  # Each decoy must be there (a missing one would pass the blkid check by omission), and blank.
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

# Day 2 growth of a 2-volume stripe: the host enlarged both volumes (1 -> 2 GiB) while the server was off,
# as an EBS modification of a stopped instance would. The boot grows PVs, LV and XFS by itself; the apply of
# the stack's new sizes then finds nothing left to do, and re-applying changes nothing.
server_ebs_grow() {
  local journal a b
  journal=$(boot_journal)
  check_eq "the unit ran at boot and succeeded" "$(unit_result)" "active success"
  check_eq "the boot grew both physical volumes" "$(grep -c 'growing physical volume' <<<"$journal")" 2
  check_has "it extended the striped LV over both" "$journal" "on each of the 2 disks"
  check_has "and grew the XFS online" "$journal" "growing XFS on $EXPORT"
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
# server's scope (its identity, not this host's name), and nfsdcld records the clients that hold state on
# the data file system. Then it shuts down while a client writes (the stage's end powers the VM off).
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

# The replacement: a new instance (new root disk: the loader user data, then the apply, as at a first boot)
# with the same volumes and address. EC2 gives each instance its own host name; so does this stage.
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

# Scenario 6, second half, by hand on the replacement (after its client is done): volume 2 detached, the apply
# waits the configured 40 s for it, then fails naming the volume id, and brings up nothing on volume 1 alone.
# The state before the apply is a boot's before the bootstrap: nothing served, nothing mounted, the VG inactive.
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

# Day 2 growth of a single volume, live: one EBS volume found by its Xen attachment name (/dev/sdf shows as
# /dev/xvdf), a client mounted and writing; the host enlarges the disk of the running VM (qemu block_resize,
# as EBS does for an in-use volume) and the apply of the new size grows PV, LV and XFS without an unmount.
server_ebs_xen() {
  local mount before end=$((SECONDS + 120))
  first_boot ebs-xen
  check_eq "the apply succeeds" "$(apply_rc)" 0
  check_layout /dev/xvdf
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

# Restore: a new server whose volumes were restored from snapshots. First it is given one disk of the
# instance-store server's array and one of the Xen server's (two arrays, two server identities): refused,
# naming both, nothing written (the host checks every byte). Then the EBS server's two disks, restored
# whole (the next boot, as after a redeploy with the right snapshots): adopted, the data intact.
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
# Then by hand: the host swaps the mixture for the EBS server's two disks, restored whole (as a redeploy with the
# right snapshots would attach), and the apply of that server's settings adopts them, the data intact.
restore_own_by_hand() {
  SCEN='restore-own'
  # As at a boot with only the new disks: nothing of the refused ones active (both held a VG named like ours).
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


# Scenario 7: the snapshot freeze script (lib/scripts/snapshot-freeze.sh, run as DLM's SSM document would)
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
  # A distribution-default server: one plain exports line, nfs.conf untouched (threads, versions).
  for v in threads vers3 vers4 vers4.0 vers4.1 vers4.2; do nfsconf --unset nfsd "$v"; done
  echo "$EXPORT 192.168.77.0/28(rw)" >/etc/exports.d/storage-server.exports
  systemctl restart nfs-server
  info "distribution default: $(exportfs -v | tr -s '\n\t ' ' '); nfsd threads $(cat /proc/fs/nfsd/threads)"
  send default-ready && recv default-done 900 || return 0
  sed -i "s/^STORAGE_EXPORT_MODE=.*/STORAGE_EXPORT_MODE='async'/" /etc/storage-server/bootstrap.env
  check "the bootstrap re-applies the project's settings, now async" "$BOOTSTRAP"
  send async-ready && recv finished 900
}
