#!/bin/bash
# Guest side of the e2e scenario "client-mount"; the host side is test/e2e/client-mount.sh. The host puts
# this file on its own control disk as guest/stage.sh, which the test image's e2e-boot.sh runs at boot.
#
# The VM is a cluster node: it runs lib/scripts/client-mount.sh against the moto server on the host, by
# qemu's user network forwarded to 10.0.2.100:5000. The script reads the configs with the AWS CLI of
# Debian's awscli package 2.9, which ignores AWS_ENDPOINT_URL, so the script passes --endpoint-url. A
# wrapper in front of it records each call. To make the mounts real NFSv4.1 without a second VM, the
# node also serves exports on loopback addresses, standing in for storage servers. With /etc/hosts standing
# in for the VPC's resolver, one also stands in for an FSx for OpenZFS file system reached by its DNS name.
# This stage plays the registration too: it writes and deletes the mount configs with one-line python3
# calls, faster than the CLI in an emulated VM, as moto does not check signatures.
# Usage from e2e-boot.sh: stage.sh client-mount ssm
set -u
SCEN=client-mount
CTL=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPT=$CTL/scripts/client-mount.sh
CLUSTER=vmcluster
PREFIX=/storage-server
# The published client options, less noresvport: a secure export, the default and the server's, refuses
# clients on non-reserved ports.
OPTS=nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev
# The servers this node may mount: the loopback exports below stand in for the VPC's storage servers.
ALLOWED=127.0.0.0/8
export AWS_ENDPOINT_URL=http://10.0.2.100:5000 AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=e2e AWS_SECRET_ACCESS_KEY=e2e
export CLIENT_MOUNT_RETRY_DELAY=2
# The wrapper that records the script's calls of the AWS CLI, first on PATH. It lives on the root file
# system, as the initramfs mounts /run noexec.
AWS_WRAP=/var/tmp/e2e-aws
AWS_CALLS=$AWS_WRAP/calls

pass() { echo "E2E PASS $SCEN: $1"; }
fail() { echo "E2E FAIL $SCEN: $1${2:+ -- $2}"; }
check() {
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(tail -n 4 <<<"$out" | tr '\n' ' ')"; fi
}
check_eq() { if [[ $2 == "$3" ]]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi; }
check_has() { if [[ $2 == *"$3"* ]]; then pass "$1"; else fail "$1" "'$3' not in: $(tr '\n' ' ' <<<"$2")"; fi; }

# ssm <Action> <json>: one unsigned SSM JSON call to the emulator, playing the registration's part.
ssm() {
  python3 -c 'import sys, urllib.request
req = urllib.request.Request(sys.argv[1], sys.argv[3].encode(), method="POST", headers={
    "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "AmazonSSM." + sys.argv[2],
    "Authorization": "AWS4-HMAC-SHA256 Credential=e2e/20260101/us-east-1/ssm/aws4_request, SignedHeaders=host, Signature=0"})
print(urllib.request.urlopen(req, timeout=20).read().decode())' "$AWS_ENDPOINT_URL" "$1" "$2"
}
param() { printf '%s/%s/storage/%s/mount' "$PREFIX" "$CLUSTER" "$1"; }
# put_config <server> <ip> <export> <mount point> [options]: a mount config (docs/design.md, section 6) whose fstab agrees
# with its fields, whatever they hold. python3 encodes the values as JSON, never the shell.
put_config() {
  ssm PutParameter "$(python3 -c 'import json, sys
name, server, export, mp, opts = sys.argv[1:6]
rec = {"server": server, "exportPath": export, "mountPoint": mp, "fsType": "nfs4", "options": opts,
       "fstab": " ".join([server + ":" + export, mp, "nfs4", opts, "0", "0"])}
print(json.dumps({"Name": name, "Value": json.dumps(rec), "Type": "String", "Overwrite": True}))' \
    "$(param "$1")" "$2" "$3" "$4" "${5:-$OPTS}")" >/dev/null
}
tagged() { grep -c " # storage-server:$CLUSTER/$1\$" /etc/fstab; }
source_of() { findmnt -rn -o SOURCE --mountpoint "$1"; }
# "nosuid,nodev" when the mount on $1 has both flags, as findmnt -no OPTIONS lists them.
forced_of() {
  local o
  o=,$(findmnt -no OPTIONS --mountpoint "$1"),
  [[ $o == *,nosuid,* ]] && printf nosuid
  [[ $o == *,nodev,* ]] && printf ',nodev'
  echo
}

# Runs the script as the SSM document does, for all servers of the cluster unless the arguments say otherwise.
# Output in $OUT, status in $RC.
mount_run() {
  OUT=$(PATH=$AWS_WRAP:$PATH bash "$SCRIPT" --cluster "$CLUSTER" --prefix "$PREFIX" --allowed-servers "$ALLOWED" "$@" 2>&1)
  RC=$?
  printf '%s\n' "$OUT" | sed 's/^/    | /'
}

serve_exports() {
  local x
  mkdir -p /etc/exports.d && : >/etc/exports.d/e2e-client-mount.exports
  for x in a b c d; do
    mkdir -p "/export/$x" && echo "$x" >"/export/$x/which" &&
      echo "/export/$x 127.0.0.0/8(rw,sync,no_subtree_check,no_root_squash)" >>/etc/exports.d/e2e-client-mount.exports
  done
  modprobe nfsd && systemctl restart nfs-server && exportfs -ra && [[ $(exportfs -s | grep -c '^/export/[abcd] ') -eq 4 ]]
}

# Puts in front of the node's AWS CLI an `aws` that appends its arguments to $AWS_CALLS, one call a
# line, and runs the real one.
wrap_aws() {
  local real
  real=$(command -v aws) || return 1
  echo "    | $("$real" --version 2>&1)"
  mkdir -p "$AWS_WRAP" && : >"$AWS_CALLS" &&
    printf '#!/bin/sh\necho "$*" >>%s\nexec %s "$@"\n' "$AWS_CALLS" "$real" >"$AWS_WRAP/aws" &&
    chmod +x "$AWS_WRAP/aws"
}

client_mount_ssm() {
  local before
  if ! command -v python3 >/dev/null || ! command -v aws >/dev/null; then
    fail "the test image has python3 and the AWS CLI (add python3 and awscli to IMAGE_PACKAGES in test/e2e/lib/host.sh)"
    return 0
  fi
  check "the node serves four loopback exports standing in for storage servers" serve_exports
  check "the emulator on the host is reachable through qemu's user network" ssm DescribeParameters '{}'
  wrap_aws
  check "the node has the AWS CLI (Debian's awscli package), a recording wrapper in front of it" \
    test -x "$AWS_WRAP/aws"

  check "a unit wanted by storage-server-mounts.target and ordered after it is enabled" install_after_storage
  check_eq "before the first run: the unit after the target has not run" "$(test -e "$AFTER" && echo ran || echo not-run)" not-run
  put_config s1 127.0.0.1 /export/a /data/a
  mount_run
  check_eq "first run: exit 0" "$RC" 0
  check_eq "first run: storage-server-mounts.target is active" "$(systemctl is-active storage-server-mounts.target)" active
  check_eq "first run: the unit after it ran, and saw /data/a mounted" "$(cat "$AFTER" 2>&1)" "/data/a"
  check_eq "first run: the expected mounts are written" "$(cat /etc/storage-server/expected/$CLUSTER 2>&1)" "s1 /data/a"
  check_has "first run: the target's drop-in requires the mount" \
    "$(systemctl show -p RequiresMountsFor storage-server-mounts.target)" "RequiresMountsFor=/data/a"
  check_eq "first run: the script read the configs with one AWS CLI call, to the emulator's endpoint" \
    "$(cat "$AWS_CALLS")" \
    "ssm get-parameters-by-path --path $PREFIX/$CLUSTER/storage/ --recursive --output json --region us-east-1 --endpoint-url $AWS_ENDPOINT_URL"
  check_eq "first run: /data/a is mounted from 127.0.0.1:/export/a" "$(source_of /data/a)" 127.0.0.1:/export/a
  check_eq "first run: the mount is NFSv4.1" "$(findmnt -rn -o FSTYPE --mountpoint /data/a),$(findmnt -rn -o OPTIONS --mountpoint /data/a | grep -o 'vers=4.1')" nfs4,vers=4.1
  check_eq "first run: the export's content is there" "$(cat /data/a/which 2>&1)" a
  check_eq "first run: one fstab line for s1" "$(tagged s1)" 1
  check_eq "first run: mounted nosuid,nodev (findmnt -no OPTIONS), which the record did not ask for" \
    "$(forced_of /data/a)" nosuid,nodev
  check_has "first run: the fstab line carries nosuid,nodev" "$(grep " # storage-server:$CLUSTER/s1\$" /etc/fstab)" \
    "127.0.0.1:/export/a /data/a nfs4 $OPTS,nosuid,nodev 0 0"
  check_eq "first run: the NFS read-ahead of /data/a is 15360 KiB (its bdi, by mountpoint -d)" "$(read_ahead_of /data/a)" 15360

  before=$(sha256sum /etc/fstab)
  mount_run
  check_eq "re-run: exit 0" "$RC" 0
  check_eq "re-run: fstab is byte for byte the same" "$(sha256sum /etc/fstab)" "$before"
  check_eq "re-run: still one fstab line for s1" "$(tagged s1)" 1
  check_has "re-run: reports the mount as already there" "$OUT" "already mounted: 127.0.0.1:/export/a on /data/a"
  check_eq "re-run: /data/a is mounted once" "$(findmnt -rn --mountpoint /data/a | wc -l)" 1

  # A mount without nosuid,nodev, here remounted suid,dev by hand, gets them back in place.
  check "an old mount: /data/a remounted suid,dev by hand" mount -i --options-mode ignore -o remount,bind,suid,dev /data/a
  check_eq "an old mount: findmnt shows neither flag" "$(forced_of /data/a)" ""
  before=$(sha256sum /etc/fstab)
  mount_run
  check_eq "an old mount: exit 0" "$RC" 0
  check_has "an old mount: reported as remounted" "$OUT" "remounted 127.0.0.1:/export/a on /data/a with nosuid,nodev"
  check_eq "an old mount: nosuid,nodev again, still one mount" \
    "$(forced_of /data/a),$(findmnt -rn --mountpoint /data/a | wc -l),$(cat /data/a/which 2>&1)" nosuid,nodev,1,a
  check_eq "an old mount: fstab is byte for byte the same" "$(sha256sum /etc/fstab)" "$before"

  put_config s2 127.0.0.2 /export/b /data/b
  mount_run
  check_eq "second server: exit 0" "$RC" 0
  check_eq "second server: /data/b is mounted from 127.0.0.2:/export/b" "$(source_of /data/b)" 127.0.0.2:/export/b
  check_eq "second server: its content is there" "$(cat /data/b/which 2>&1)" b
  check_eq "second server: one fstab line each" "$(tagged s1),$(tagged s2)" 1,1
  check "systemd reads the fstab: a mount unit for each line" bash -c \
    'systemctl daemon-reload && systemctl cat data-a.mount >/dev/null && systemctl cat data-b.mount >/dev/null'
  readiness_and_removal

  ssm PutParameter "{\"Name\":\"$(param s3)\",\"Value\":\"{not json\",\"Type\":\"String\",\"Overwrite\":true}" >/dev/null
  ssm DeleteParameter "{\"Name\":\"$(param s1)\"}" >/dev/null
  before=$(sha256sum /etc/fstab)
  mount_run
  check_eq "deleted and malformed configs: exit 2 (needs attention)" "$RC" 2
  check_has "the deleted config is reported by name" "$OUT" "ATTENTION STALE $CLUSTER/s1: its mount config $(param s1) is gone"
  check_has "the malformed config is reported by name" "$OUT" "ATTENTION $(param s3): is not JSON"
  check_eq "the deleted server stays mounted (never unmounted behind a user's back)" "$(source_of /data/a)" 127.0.0.1:/export/a
  check_eq "fstab is unchanged (the stale line is left for a person)" "$(sha256sum /etc/fstab)" "$before"
  check_eq "the other server is still mounted" "$(source_of /data/b)" 127.0.0.2:/export/b


  # mountStorageOn: the user data a CDK consumer's node runs, rendered on the host, then the script.
  check "mountStorageOn user data: mounts 127.0.0.3:/export/c on /shared/c" bash "$CTL/scripts/mount-on-user-data.sh"
  check "mountStorageOn user data: a second run succeeds too" bash "$CTL/scripts/mount-on-user-data.sh"
  check_eq "mountStorageOn user data: /shared/c is mounted once from 127.0.0.3:/export/c" \
    "$(source_of /shared/c)" 127.0.0.3:/export/c
  check_eq "mountStorageOn user data: one fstab line" "$(tagged direct)" 1
  put_config direct 127.0.0.3 /export/c /shared/c
  mount_run
  check_has "the script finds the user data's line to be its own" "$OUT" "fstab unchanged for $CLUSTER/direct"
  check_has "and the mount in place" "$OUT" "already mounted: 127.0.0.3:/export/c on /shared/c"
  check_eq "still one fstab line for it" "$(tagged direct)" 1
  check_eq "mountStorageOn user data: mounted nosuid,nodev" "$(forced_of /shared/c)" nosuid,nodev

  refused_records
  fast_client
  openzfs_records
  umount /data/a /data/b /shared/c /data/d /data/e /data/f /shared/g /shared/zfs /data/h 2>/dev/null
  return 0
}

# A unit as a scheduler's daemon would be set up after the target (README, "Node readiness"): Requires= and After=
# it, and wanted by it, so that it starts when the target does. It writes the data mounts it finds to $AFTER.
AFTER=/run/e2e-after-storage
install_after_storage() {
  # shellcheck disable=SC2016 # the helper's own $5
  printf '%s\n' '#!/bin/sh' "awk '\$5 ~ /^\\/data\\// { print \$5 }' /proc/self/mountinfo | sort >$AFTER" >/usr/local/sbin/e2e-after-storage &&
    chmod 0755 /usr/local/sbin/e2e-after-storage &&
    printf '%s\n' '[Unit]' 'Requires=storage-server-mounts.target' 'After=storage-server-mounts.target' \
      '[Service]' 'Type=oneshot' 'RemainAfterExit=yes' 'ExecStart=/usr/local/sbin/e2e-after-storage' \
      '[Install]' 'WantedBy=storage-server-mounts.target' >/etc/systemd/system/e2e-after-storage.service &&
    systemctl daemon-reload && systemctl enable e2e-after-storage.service 2>&1
}

# Readiness on a fresh boot (the target stopped), a server that does not answer, removal by tombstone (a busy mount
# unmounted lazily), and an existing NFS server registered by address. s1 on /data/a and s2 on /data/b are mounted.
readiness_and_removal() {
  local started elapsed holder
  tomb() { ssm PutParameter "{\"Name\":\"$PREFIX/$CLUSTER/removed/$1\",\"Value\":\"{\\\"name\\\":\\\"$1\\\",\\\"removedAt\\\":\\\"2026-12-01T10:00:00.000Z\\\",\\\"removedBy\\\":{}}\",\"Type\":\"String\",\"Overwrite\":true}" >/dev/null; }
  systemctl stop storage-server-mounts.target && rm -f "$AFTER"
  # 10.0.2.99: nothing answers there on qemu's user network (restrict=on).
  put_config s9 10.0.2.99 /export/a /data/s9
  started=$SECONDS
  mount_run --allowed-servers 127.0.0.0/8,10.0.2.99/32 --ready-timeout-minutes 1
  elapsed=$((SECONDS - started))
  check_eq "a server that does not answer: exit 2" "$RC" 2
  check_has "a server that does not answer: NOT-READY names it" "$OUT" "storage-server: ATTENTION NOT-READY $CLUSTER/s9: not mounted within 1 min 0 s"
  check "a server that does not answer: the run ends within the bound (60 s) and one try's 45 s ($elapsed s)" test "$elapsed" -lt 105
  check_eq "a server that does not answer: the target is not reached, the unit after it did not run" \
    "$(systemctl is-active storage-server-mounts.target),$(test -e "$AFTER" && echo ran || echo not-run)" inactive,not-run
  check_eq "a server that does not answer: the others stay mounted" "$(source_of /data/a),$(source_of /data/b)" \
    127.0.0.1:/export/a,127.0.0.2:/export/b

  ssm DeleteParameter "{\"Name\":\"$(param s9)\"}" >/dev/null && tomb s9
  mount_run
  check_eq "s9 removed (tombstone): exit 0" "$RC" 0
  check_has "s9 removed: its line dropped, it was never mounted" "$OUT" "removed $CLUSTER/s9: /data/s9 was not mounted"
  check_eq "s9 removed: no fstab line" "$(tagged s9)" 0
  check_eq "every record mounted: the target is reached" "$(systemctl is-active storage-server-mounts.target)" active
  check_eq "every record mounted: the unit after it ran then, and saw both mounts" "$(tr '\n' ' ' <"$AFTER" 2>&1)" "/data/a /data/b "

  # An existing NFS server registered by address, backend nfs, as the registration writes it.
  mkdir -p /export/h && echo h >/export/h/which &&
    echo "/export/h 127.0.0.0/8(rw,sync,no_subtree_check,no_root_squash)" >>/etc/exports.d/e2e-client-mount.exports && exportfs -ra
  ssm PutParameter "$(python3 -c 'import json, sys
print(json.dumps({"Name": sys.argv[1], "Value": open(sys.argv[2]).read(), "Type": "String", "Overwrite": True}))' \
    "$(param nfsx)" "$CTL/scripts/nfs-record.json")" >/dev/null
  mount_run
  check_eq "backend nfs (an NFS server by address): exit 0" "$RC" 0
  check_eq "backend nfs: mounted from 127.0.0.8:/export/h, its content there" "$(source_of /data/h),$(cat /data/h/which 2>&1)" \
    127.0.0.8:/export/h,h
  check_has "backend nfs: the target's drop-in requires it too" \
    "$(systemctl show -p RequiresMountsFor storage-server-mounts.target)" "/data/h"

  # Removal of a mount in use: a process holds /data/h; it is unmounted lazily, naming that process.
  (cd /data/h && exec sleep 300) &
  holder=$!
  sleep 1
  ssm DeleteParameter "{\"Name\":\"$(param nfsx)\"}" >/dev/null && tomb nfsx
  mount_run
  check_eq "a tombstoned record in use: exit 0" "$RC" 0
  # The test image has no psmisc: the script says it cannot name the processes (the integration tests name them).
  if command -v fuser >/dev/null; then
    check_has "a tombstoned record in use: unmounted lazily, naming the holder" "$OUT" "lazily unmounted /data/h: in use by"
    check_has "a tombstoned record in use: the holder's pid is named" "$(grep 'lazily unmounted /data/h' <<<"$OUT")" " $holder"
  else
    check_has "a tombstoned record in use: unmounted lazily; no fuser here, said plainly" "$OUT" \
      "lazily unmounted /data/h: in use (no fuser, from psmisc, to name the processes)"
  fi
  check_eq "a tombstoned record: not mounted, its fstab line gone, its directory left" \
    "$(findmnt -rn --mountpoint /data/h | wc -l),$(tagged nfsx),$(test -d /data/h && echo dir)" 0,0,dir
  check_eq "a tombstoned record: the target stays active" "$(systemctl is-active storage-server-mounts.target)" active
  kill "$holder" 2>/dev/null
  wait "$holder" 2>/dev/null
}

# The read-ahead of the NFS mount on $1: /sys/class/bdi/<major:minor>/read_ahead_kb, the numbers by util-linux's
# mountpoint -d. The script itself reads field 3 of /proc/self/mountinfo.
read_ahead_of() { cat "/sys/class/bdi/$(mountpoint -d "$1")/read_ahead_kb"; }
# The super options of the mount on $1 as the kernel shows them: the field after fstype and source in mountinfo.
super_options_of() { awk -v mp="$1" '$5 == mp { for (i = 7; i < NF; i++) if ($i == "-") { o = $(i + 3); break } } END { print o }' /proc/self/mountinfo; }
# Unmounts $1 and mounts it again from /etc/fstab, for a new superblock and bdi and so udev's "add" event. Then it
# waits for udev.
remount() { umount "$1" && mount "$1" && udevadm settle; }

more_exports() {
  local x
  for x in e f g; do
    mkdir -p "/export/$x" && echo "$x" >"/export/$x/which" &&
      echo "/export/$x 127.0.0.0/8(rw,sync,no_subtree_check,no_root_squash)" >>/etc/exports.d/e2e-client-mount.exports || return 1
  done
  exportfs -ra && [[ $(exportfs -s | grep -c '^/export/[efg] ') -eq 3 ]]
}

# nconnect and the read-ahead (docs/design.md, section 9) on Debian's kernel, which has nconnect. Then on a stand-in
# for a kernel without it: mount.nfs wrapped to fail exactly as mount.nfs does when mount(2) refuses the option.
fast_client() {
  local nc_opts=${OPTS/retrans=2/retrans=2,nconnect=16} line rule=/etc/udev/rules.d/99-storage-server-nfs-read-ahead.rules
  local conf=/etc/nfs.conf.d/storage-server-read-ahead.conf
  check "nfs-utils' own read-ahead rule is on this image (the nfsrahead pitfall is real here)" test -e /usr/lib/udev/rules.d/99-nfs.rules
  # Exports of their own: a second mount of an export already mounted shares its superblock, and shows its source.
  check "three more loopback exports (e, f, g)" more_exports
  put_config s5 127.0.0.5 /export/e /data/e "$nc_opts"
  mount_run --server s5
  check_eq "nconnect: exit 0" "$RC" 0
  line=$(grep " # storage-server:$CLUSTER/s5\$" /etc/fstab)
  check_eq "nconnect: the fstab line keeps nconnect=16" "$line" "127.0.0.5:/export/e /data/e nfs4 $nc_opts,nosuid,nodev 0 0 # storage-server:$CLUSTER/s5"
  # Every loopback address is this one nfsd, which NFSv4.1 recognises as one server. So the mount joins the
  # connection of /data/a and the others, made without nconnect; by [SUSE-KB], the first mount fixes the count. The
  # script says so rather than hide it.
  check_has "nconnect: beside earlier mounts of the same server it is not in effect, and the script says so" "$OUT" \
    "nconnect not in effect on /data/e: the kernel shares the connections of an earlier mount of the same server"
  check "nconnect: every mount of the server unmounted, /data/e mounted again from fstab" \
    bash -c 'umount /data/a /data/b /shared/c /data/d /data/e && mount /data/e'
  check_has "nconnect: now the kernel mounted it with nconnect=16 (/proc/self/mountinfo)" ",$(super_options_of /data/e)," ",nconnect=16,"
  check_eq "nconnect: the probe left no mount and no directory behind" \
    "$(grep -c storage-server-nconnect /proc/self/mountinfo),$(find /tmp -maxdepth 1 -name 'storage-server-nconnect.*' | wc -l)" 0,0
  check_eq "read-ahead: 15360 KiB on the mount's bdi right after the mount" "$(read_ahead_of /data/e)" 15360
  check "read-ahead: the udev rule and the [nfsrahead] section are written" \
    bash -c "grep -q 'ATTR{read_ahead_kb}=\"15360\"' $rule && grep -qx 'nfs4=15360' $conf"
  remount /data/e
  check_eq "after a remount: nconnect=16 again, read-ahead 15360 set by the udev rule" \
    "$(super_options_of /data/e | grep -o 'nconnect=16'),$(read_ahead_of /data/e)" nconnect=16,15360
  # The rule alone, without the [nfsrahead] section: it runs after nfs-utils' 99-nfs.rules, whose nfsrahead
  # would set 128.
  rm -f "$conf"
  remount /data/e
  check_eq "after a remount with the rule alone (no [nfsrahead]): still 15360 (it runs after 99-nfs.rules)" "$(read_ahead_of /data/e)" 15360
  mount_run --server s5 --read-ahead-kib 0
  check_eq "read-ahead 0: exit 0, the rule removed" "$RC,$(test -e "$rule" && echo present || echo gone)" 0,gone
  remount /data/e
  check_eq "read-ahead 0: after a remount the kernel's (and nfsrahead's) 128 KiB" "$(read_ahead_of /data/e)" 128
  mount_run --server s5
  check_eq "read-ahead back to the default: exit 0" "$RC" 0
  check_eq "read-ahead back to the default: set at once on the mount" "$(read_ahead_of /data/e)" 15360
  remount /data/e
  check_eq "read-ahead back to the default: 15360 after a remount" "$(read_ahead_of /data/e)" 15360

  # A kernel without nconnect: no mount may show nconnect in the mount table, as the script would trust it.
  # mount.nfs, to which mount.nfs4 is a link, is replaced by a bind mount with a wrapper. The wrapper refuses
  # any -o list with nconnect as mount.nfs does when mount(2) returns EINVAL, exit 32, and runs the real one
  # otherwise.
  umount /data/e
  cp /usr/sbin/mount.nfs /var/tmp/e2e-mount.nfs.real
  # shellcheck disable=SC2016 # the wrapper's own $0, $* and $@
  printf '%s\n' '#!/bin/bash' \
    'case " $* " in *nconnect=*) echo "${0##*/}: an incorrect mount option was specified" >&2; exit 32 ;; esac' \
    'exec -a "${0##*/}" /var/tmp/e2e-mount.nfs.real "$@"' >/var/tmp/e2e-mount.nfs
  chmod 0755 /var/tmp/e2e-mount.nfs
  check "old kernel: mount.nfs wrapped" mount --bind /var/tmp/e2e-mount.nfs /usr/sbin/mount.nfs
  check_has "old kernel: the wrapper refuses nconnect with exit 32" \
    "$(mkdir -p /var/tmp/e2e-probe && mount -t nfs4 -o "$nc_opts" 127.0.0.6:/export/f /var/tmp/e2e-probe 2>&1; echo "rc=$?")" \
    "mount.nfs4: an incorrect mount option was specified"$'\n'"rc=32"
  put_config s6 127.0.0.6 /export/f /data/f "$nc_opts"
  mount_run --server s6
  check_eq "old kernel: exit 0" "$RC" 0
  check_has "old kernel: one line says nconnect was dropped, and why" "$OUT" \
    "nconnect dropped for $CLUSTER/s6: this kernel ($(uname -r)) refuses the option: mount.nfs exit 32, 'mount.nfs4: an incorrect mount option was specified'"
  check_eq "old kernel: exactly one such line" "$(grep -c 'nconnect dropped' <<<"$OUT")" 1
  check_eq "old kernel: the fstab line has no nconnect" "$(grep " # storage-server:$CLUSTER/s6\$" /etc/fstab)" \
    "127.0.0.6:/export/f /data/f nfs4 $OPTS,nosuid,nodev 0 0 # storage-server:$CLUSTER/s6"
  check_eq "old kernel: mounted, without nconnect, read-ahead 15360" \
    "$(source_of /data/f),$(super_options_of /data/f | grep -c nconnect),$(read_ahead_of /data/f),$(cat /data/f/which 2>&1)" \
    127.0.0.6:/export/f,0,15360,f
  umount /data/f
  check "old kernel: the fstab line mounts as a boot would (mount /data/f, from fstab)" bash -c 'mount /data/f && findmnt -rn --mountpoint /data/f >/dev/null'
  check "old kernel: mountStorageOn's user data with nconnect mounts 127.0.0.7:/export/g on /shared/g" \
    bash "$CTL/scripts/mount-on-user-data-nconnect.sh"
  check_eq "old kernel: the user data's line lost nconnect, and the mount is there" \
    "$(grep -c 'nconnect' <<<"$(grep " # storage-server:$CLUSTER/direct-nc\$" /etc/fstab)"),$(source_of /shared/g)" 0,127.0.0.7:/export/g
  umount /usr/sbin/mount.nfs
}

# The OpenZFS records and the refused records and mount roots, beside this file on the control disk.
# shellcheck source=client-mount-stage-records.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/client-mount-stage-records.sh"

client_mount_"${2//-/_}"
