# shellcheck shell=bash
# shellcheck disable=SC2034 # SCEN is read by the result helpers in common.sh
# Server stages: one function per boot of a server VM. Each asserts what the bootstrap left behind, then
# serves its client VM through the hand-shake, ready -> ... -> done, before the VM powers off.

VG=storageserver
LV=data
LVDEV=/dev/$VG/$LV
BOOTSTRAP=/usr/local/sbin/storage-bootstrap
# The encrypted layout of instance store on d2: LUKS2 on the LV, XFS on this mapping, the key in KEYS.
CRYPTDEV=/dev/mapper/storageserver_data_crypt
KEYS=/etc/storage-server/keys
# Written into the encrypted export; run.sh on the host then looks for it in the raw disk images.
PLAINTEXT_MARKER=storage-server-e2e-plaintext-marker
as_bench() { "$@"; }

# First boot: what EC2 does with the user data, the constant loader. Then what the SSM agent does for the
# server's State Manager association: run the apply document's shell step with /bin/sh, as root.
first_boot() {
  install -D -m 0700 "$CTL/userdata/loader.sh" /var/lib/cloud/instance/user-data.txt
  /var/lib/cloud/instance/user-data.txt >"$STATE/loader.log" 2>&1
  check_eq "the loader user data runs to its end" "$?" 0
  apply "$1"
}

# apply <scenario>: one run of the apply document's step; its output in $STATE/apply.log, its status in
# $STATE/apply.rc. The status is what the association reports, and CloudFormation waits for.
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
# nvme_serial <serial>: the NVMe disk whose controller has that serial, read from sysfs as EC2 shows it.
# /dev/disk/by-id would not do: its names carry the model, which the image's e2e-nvme-models presents as EC2's.
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

# check_luks: the LV carries LUKS2 made by the bootstrap: its label, aes-xts-plain64, a 512-bit key, data at
# a whole stripe width. It opens with the one key on the root volume, named by the LUKS UUID and root's only.
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

# check_layout [--luks] <devices in stripe order...>: one LV over exactly these disks, encrypted with
# --luks; XFS aligned, fstab, mount.
check_layout() {
  local luks=0 n d q want got uuid fstab dev=$LVDEV
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
    "UUID=$uuid $EXPORT xfs defaults,usrquota,grpquota,prjquota,nofail,x-systemd.before=nfs-server.service 0 0"
  for q in usrquota grpquota prjquota; do # quotas on from creation on (issue 46)
    check_has "mounted with $q" ",$(findmnt -nro OPTIONS --mountpoint "$EXPORT")," ",$q,"
  done
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
# itself stays root's, by root_squash.
make_client_dir() {
  mkdir -p "$EXPORT/e2e" && chown 1000:1000 "$EXPORT/e2e"
}

# statsd_lines: what one run of storage-metrics sends to the agent's StatsD listener, captured by a stand-in
# listener on 127.0.0.1:8125. The CloudWatch agent is not packaged for Debian, so its input is what is checked.
# The listener says when it is bound and stops when told, once the oneshot run has ended, not after a fixed
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

# check_metrics <live|down>: the timer runs storage-metrics. One run's datagrams carry the heartbeat and the
# file system's figures only while the export is live and mounted, nfsd's counters either way.
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

# The copy's helpers, beside this file.
# shellcheck source=copy.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/copy.sh"

# The stages, by backend: each file beside this one on the control disk.
# shellcheck source=server-instance-store.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/server-instance-store.sh"
# shellcheck source=server-ebs.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/server-ebs.sh"
