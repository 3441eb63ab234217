#!/bin/bash
# Guest side of the e2e scenario "client-mount" (host side: test/e2e/client-mount.sh). The host puts this
# file on its own control disk as guest/stage.sh, which the test image's e2e-boot.sh runs at boot.
#
# The VM is a cluster node: it runs lib/scripts/client-mount.sh against the moto server on the host
# (qemu user network, forwarded to 10.0.2.100:5000). The script reads the configs with the AWS CLI of
# Debian's awscli package (2.9, which ignores AWS_ENDPOINT_URL: the script passes --endpoint-url); a
# wrapper in front of it records each call. To make the mounts real NFSv4.1 without a second VM, the
# node also serves three exports on loopback addresses, standing in for storage servers. This stage
# plays the registration too: it writes and deletes the mount configs with one-line python3 calls,
# faster than the CLI in an emulated VM (moto does not check signatures).
# Usage (from e2e-boot.sh): stage.sh client-mount ssm
set -u
SCEN=client-mount
CTL=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPT=$CTL/scripts/client-mount.sh
CLUSTER=vmcluster
PREFIX=/storage-server
# The published client options, less noresvport: a secure export (the default, and the server's) refuses
# clients on non-reserved ports.
OPTS=nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev
# The servers this node may mount: the loopback exports below stand in for the VPC's storage servers.
ALLOWED=127.0.0.0/8
export AWS_ENDPOINT_URL=http://10.0.2.100:5000 AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=e2e AWS_SECRET_ACCESS_KEY=e2e
export CLIENT_MOUNT_RETRY_DELAY=2
# The wrapper that records the script's calls of the AWS CLI, first on PATH (on the root file system:
# the initramfs mounts /run noexec).
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

# ssm <Action> <json>: one unsigned SSM JSON call to the emulator (the registration's part).
ssm() {
  python3 -c 'import sys, urllib.request
req = urllib.request.Request(sys.argv[1], sys.argv[3].encode(), method="POST", headers={
    "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "AmazonSSM." + sys.argv[2],
    "Authorization": "AWS4-HMAC-SHA256 Credential=e2e/20260101/us-east-1/ssm/aws4_request, SignedHeaders=host, Signature=0"})
print(urllib.request.urlopen(req, timeout=20).read().decode())' "$AWS_ENDPOINT_URL" "$1" "$2"
}
param() { printf '%s/%s/storage/%s/mount' "$PREFIX" "$CLUSTER" "$1"; }
# put_config <server> <ip> <export> <mount point> [options]: a mount config (docs/design.md, section 6) whose fstab agrees
# with its fields (whatever they hold: the values are JSON-encoded by python3, never by the shell).
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
# "nosuid,nodev" when the mount on $1 has both flags (as findmnt -no OPTIONS lists them).
forced_of() {
  local o
  o=,$(findmnt -no OPTIONS --mountpoint "$1"),
  [[ $o == *,nosuid,* ]] && printf nosuid
  [[ $o == *,nodev,* ]] && printf ',nodev'
  echo
}

# Runs the script as the SSM document does (all servers of the cluster); output in $OUT, status in $RC.
mount_run() {
  OUT=$(PATH=$AWS_WRAP:$PATH bash "$SCRIPT" --cluster "$CLUSTER" --prefix "$PREFIX" --allowed-servers "$ALLOWED" 2>&1)
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

# Puts in front of the node's AWS CLI an `aws` that appends its arguments to $AWS_CALLS (one call a
# line) and runs the real one.
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

  put_config s1 127.0.0.1 /export/a /data/a
  mount_run
  check_eq "first run: exit 0" "$RC" 0
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

  before=$(sha256sum /etc/fstab)
  mount_run
  check_eq "re-run: exit 0" "$RC" 0
  check_eq "re-run: fstab is byte for byte the same" "$(sha256sum /etc/fstab)" "$before"
  check_eq "re-run: still one fstab line for s1" "$(tagged s1)" 1
  check_has "re-run: reports the mount as already there" "$OUT" "already mounted: 127.0.0.1:/export/a on /data/a"
  check_eq "re-run: /data/a is mounted once" "$(findmnt -rn --mountpoint /data/a | wc -l)" 1

  # A mount made before nosuid,nodev were forced (here: remounted suid,dev by hand) gets them back in place.
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


  # mountStorageOn: the user data a CDK consumer's node runs (rendered on the host), then the script.
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
  umount /data/a /data/b /shared/c /data/d 2>/dev/null
  return 0
}

# Records a person with write access to the parameters could forge: each is reported and leaves no trace
# (fstab, mount table, directories, /etc/cron.d, no command run); a good record beside them still mounts.
refused_records() {
  local before_fstab before_mounts before_cron out_line racer
  # /etc/cron.d's entries and the directory itself (not "..": /etc changes when fstab is rewritten).
  cron_state() { ls -lA --time-style=full-iso /etc/cron.d && stat -c '%i %Y %a %U' /etc/cron.d; }
  # A link root made in a directory only root writes, under a mount root: refused all the same.
  ln -sfn /etc/cron.d /data/cron-link
  # A directory under a mount root that every user may write (sticky, as /tmp), and in it a link to /etc/cron.d
  # that an unprivileged user planted; while the script runs, that user keeps swapping a directory and the link
  # at a second name (the review's race, won 3 times in 25 against a check followed by mount).
  mkdir -p /shared/open && chmod 1777 /shared/open
  runuser -u nobody -- ln -s /etc/cron.d /shared/open/proj
  rm -f /var/tmp/e2e-race-stop
  runuser -u nobody -- bash -c 'until [ -e /var/tmp/e2e-race-stop ]; do mkdir /shared/open/race 2>/dev/null
    rmdir /shared/open/race 2>/dev/null; ln -s /etc/cron.d /shared/open/race 2>/dev/null; rm -f /shared/open/race; done' &
  racer=$!
  put_config evil-cron 203.0.113.66 /evil /etc/cron.d "$OPTS,suid,dev"
  put_config evil-cron-in 127.0.0.1 /export/a /etc/cron.d "$OPTS,suid,dev"
  put_config evil-suid 127.0.0.2 /export/b /data/evil-suid "$OPTS,suid"
  put_config evil-outside 10.0.2.2 /export/b /data/evil-outside
  put_config evil-meta 127.0.0.2 /export/b '/data/x;touch /tmp/pwned-mp'
  put_config evil-meta-opts 127.0.0.2 /export/b /data/evil-meta "$OPTS,\$(touch /tmp/pwned-opts)"
  put_config evil-link 127.0.0.2 /export/b /data/cron-link
  # Where root-run code lives (nosuid,nodev do not stop root running a planted file), outside the mount roots.
  put_config evil-opt 127.0.0.2 /export/b /opt/aws
  put_config evil-snap 127.0.0.2 /export/b /snap/bin
  put_config evil-nix 127.0.0.2 /export/b /nix/store
  put_config evil-mnt 127.0.0.2 /export/b /mnt/evil
  put_config evil-planted 127.0.0.2 /export/b /shared/open/proj
  put_config evil-race 127.0.0.2 /export/b /shared/open/race
  # 2,000 nested arrays (4,000 characters: a standard parameter holds 4,096): json.loads raises RecursionError,
  # which once stopped the whole run with exit 1.
  ssm PutParameter "$(python3 -c 'import json, sys
print(json.dumps({"Name": sys.argv[1], "Value": "[" * 2000 + "]" * 2000, "Type": "String", "Overwrite": True}))' \
    "$(param evil-nested)")" >/dev/null
  before_fstab=$(sha256sum /etc/fstab)
  before_mounts=$(cat /proc/self/mountinfo)
  before_cron=$(cron_state)
  mount_run
  touch /var/tmp/e2e-race-stop
  wait "$racer" 2>/dev/null
  local roots="the mount roots are /data /scratch /shared /fsx"
  check_eq "forged records: exit 2 (needs attention)" "$RC" 2
  check_has "the /etc/cron.d example from outside the allowance is reported" "$OUT" \
    "ATTENTION $(param evil-cron): server 203.0.113.66 is outside the allowed servers $ALLOWED; record skipped"
  check_has "/etc/cron.d from an allowed server is reported: not a mount root" "$OUT" \
    "ATTENTION $(param evil-cron-in): mountPoint \"/etc/cron.d\" is not a mount root or below one; $roots; record skipped"
  check_has "a suid option is reported" "$OUT" \
    "ATTENTION $(param evil-suid): options: \"suid\" is not an allowed mount option; record skipped"
  check_has "a server outside the allowance is reported" "$OUT" \
    "ATTENTION $(param evil-outside): server 10.0.2.2 is outside the allowed servers $ALLOWED; record skipped"
  check_has "shell metacharacters in mountPoint are reported" "$OUT" \
    "ATTENTION $(param evil-meta): mountPoint \"/data/x;touch /tmp/pwned-mp\" has an empty segment or a character other than"
  check_has "\$(...) in options is reported" "$OUT" \
    "ATTENTION $(param evil-meta-opts): options: \"\$(touch /tmp/pwned-opts)\" is not an allowed mount option"
  check_has "a mount point that is a symbolic link (made by root, under a mount root) is reported" "$OUT" \
    "ATTENTION $(param evil-link): mountPoint \"/data/cron-link\": it is a symbolic link on this node; record skipped"
  check_has "/opt/aws is reported: not a mount root" "$OUT" \
    "ATTENTION $(param evil-opt): mountPoint \"/opt/aws\" is not a mount root or below one; $roots; record skipped"
  check_has "/snap/bin is reported: not a mount root" "$OUT" \
    "ATTENTION $(param evil-snap): mountPoint \"/snap/bin\" is not a mount root or below one; $roots; record skipped"
  check_has "/nix/store is reported: not a mount root" "$OUT" \
    "ATTENTION $(param evil-nix): mountPoint \"/nix/store\" is not a mount root or below one; $roots; record skipped"
  check_has "/mnt/evil is reported: not a mount root" "$OUT" \
    "ATTENTION $(param evil-mnt): mountPoint \"/mnt/evil\" is not a mount root or below one; $roots; record skipped"
  check_has "a link planted by a user in a directory every user writes is reported (the directory is the reason)" "$OUT" \
    "ATTENTION $(param evil-planted): mountPoint \"/shared/open/proj\": \"/shared/open\" is writable by group and others (mode 1777)"
  check_has "a name a user keeps swapping between a directory and a link is reported" "$OUT" \
    "ATTENTION $(param evil-race): mountPoint \"/shared/open/race\": \"/shared/open\" is writable by group and others (mode 1777)"
  check_has "deeply nested JSON is reported (RecursionError), and the run goes on" "$OUT" \
    "ATTENTION $(param evil-nested): is nested too deeply to check (RecursionError); record skipped"
  check_eq "forged records: one ATTENTION line each (14), besides the stale s1 and the malformed s3" \
    "$(grep -c 'ATTENTION /storage-server/vmcluster/storage/evil-' <<<"$OUT")" 14
  check_eq "forged records: fstab is byte for byte the same" "$(sha256sum /etc/fstab)" "$before_fstab"
  check_eq "forged records: the mount table is the same (/proc/self/mountinfo)" "$(cat /proc/self/mountinfo)" "$before_mounts"
  check_eq "forged records: /etc/cron.d is untouched" "$(cron_state)" "$before_cron"
  check_eq "forged records: no directory made for them, no command of theirs run" \
    "$(ls -d /data/evil-suid /data/evil-outside /data/evil-meta /data/x* /opt/aws /snap /nix /mnt/evil /tmp/pwned-* 2>/dev/null)" ""

  put_config s4 127.0.0.4 /export/d /data/d "nosuid,$OPTS"
  mount_run
  check_eq "a good record beside them: exit 2 (the forged ones still need attention)" "$RC" 2
  check_eq "a good record beside them: /data/d is mounted from 127.0.0.4:/export/d" "$(source_of /data/d)" 127.0.0.4:/export/d
  check_eq "a good record beside them: mounted nosuid,nodev (findmnt -no OPTIONS)" "$(forced_of /data/d)" nosuid,nodev
  check_eq "a good record beside them: its content is there" "$(cat /data/d/which 2>&1)" d
  out_line=$(grep " # storage-server:$CLUSTER/s4\$" /etc/fstab)
  check_eq "a good record beside them: its fstab line, nosuid,nodev once each at the end" "$out_line" \
    "127.0.0.4:/export/d /data/d nfs4 $OPTS,nosuid,nodev 0 0 # storage-server:$CLUSTER/s4"
  check_eq "a good record beside them: the fstab gained that one line only" \
    "$(grep -vxF "$out_line" /etc/fstab | sha256sum | cut -d' ' -f1)" "$(cut -d' ' -f1 <<<"$before_fstab")"
  check_eq "a good record beside them: the forged ones are reported again, /etc/cron.d untouched" \
    "$(grep -c 'ATTENTION /storage-server/vmcluster/storage/evil-' <<<"$OUT"),$(cron_state)" "14,$before_cron"
}

client_mount_"${2//-/_}"
