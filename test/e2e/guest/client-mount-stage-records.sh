# shellcheck shell=bash
# The client-mount stage's checks of FSx for OpenZFS records, of refused records and of refused mount roots.
# client-mount-stage.sh, beside it on the control disk, sources it for its helpers and variables.

# FSx for OpenZFS, backend fsx-openzfs, under a cluster of its own: the mount config the registration writes, rendered
# on the host by the contract's mountRecord. Its server is the file system's DNS name. /etc/hosts stands in for the
# VPC's resolver, which answers the name with the file system's address: here a loopback export /fsx, as FSx for
# OpenZFS exports its root volume.
ZFS_CLUSTER=zfscluster
zparam() { printf '%s/%s/storage/%s/mount' "$PREFIX" "$ZFS_CLUSTER" "$1"; }
# put_zfs <name> [<server> <mount point>]: the rendered record as it is, or with another server and mount point. Its
# fstab is rebuilt to agree, so that only the server is wrong.
put_zfs() {
  ssm PutParameter "$(python3 -c 'import json, sys
name, path, server, mp = sys.argv[1:5]
value = open(path).read()
if server:
    rec = json.loads(value)
    rec["server"], rec["mountPoint"] = server, mp
    rec["fstab"] = " ".join([server + ":" + rec["exportPath"], mp, "nfs4", rec["options"], "0", "0"])
    value = json.dumps(rec)
print(json.dumps({"Name": name, "Value": value, "Type": "String", "Overwrite": True}))' \
    "$(zparam "$1")" "$CTL/scripts/openzfs-record.json" "${2:-}" "${3:-}")" >/dev/null
}

openzfs_records() {
  local dns=fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com outside=fs-0fedcba9876543210.fsx.us-east-1.amazonaws.com
  local nc_opts=${OPTS/retrans=2/retrans=2,nconnect=16} before
  local rule='of an fsx-openzfs record (FSx for OpenZFS is mounted by its DNS name only) is not an FSx DNS name (fs-<id>.fsx.<region>.amazonaws.com)'
  check "OpenZFS: a loopback export /fsx stands in for the file system's root volume (root squashed)" bash -c \
    'mkdir -p /fsx && echo zfs >/fsx/which && echo "/fsx 127.0.0.0/8(rw,sync,no_subtree_check,root_squash)" >>/etc/exports.d/e2e-client-mount.exports &&
     exportfs -ra && exportfs -s | grep -q "^/fsx "'
  printf '%s\n' "127.0.0.8 $dns" "127.0.0.9 nfs.example.internal" "10.0.2.2 $outside" >>/etc/hosts
  check_eq "OpenZFS: /etc/hosts resolves the file system's DNS name to the export's address (getent ahostsv4)" \
    "$(getent ahostsv4 "$dns" | awk 'NR == 1 { print $1 }')" 127.0.0.8
  put_zfs zfs
  put_zfs zfs-ip 127.0.0.8 /shared/zfs-ip
  put_zfs zfs-name nfs.example.internal /shared/zfs-name
  put_zfs zfs-outside "$outside" /shared/zfs-outside
  mount_run --cluster "$ZFS_CLUSTER"
  check_eq "OpenZFS: exit 2 (three refused records need attention)" "$RC" 2
  check_eq "OpenZFS: /shared/zfs is mounted from the file system's DNS name (the mount table keeps the name)" \
    "$(source_of /shared/zfs)" "$dns:/fsx"
  check_eq "OpenZFS: an NFSv4.1 mount of the export, its content there" \
    "$(findmnt -rn -o FSTYPE --mountpoint /shared/zfs),$(findmnt -rn -o OPTIONS --mountpoint /shared/zfs | grep -o 'vers=4.1'),$(cat /shared/zfs/which 2>&1)" \
    nfs4,vers=4.1,zfs
  check_eq "OpenZFS: the fstab line is the record's, nconnect kept, nosuid,nodev added" \
    "$(grep " # storage-server:$ZFS_CLUSTER/zfs\$" /etc/fstab)" "$dns:/fsx /shared/zfs nfs4 $nc_opts,nosuid,nodev 0 0 # storage-server:$ZFS_CLUSTER/zfs"
  check_eq "OpenZFS: mounted nosuid,nodev, read-ahead 15360 KiB" "$(forced_of /shared/zfs),$(read_ahead_of /shared/zfs)" nosuid,nodev,15360
  check_has "OpenZFS: a record naming an IP (inside the allowance) is refused, naming the server and the rule" "$OUT" \
    "ATTENTION $(zparam zfs-ip): server \"127.0.0.8\" $rule; record skipped"
  check_has "OpenZFS: a record naming another name (resolving inside the allowance) is refused" "$OUT" \
    "ATTENTION $(zparam zfs-name): server \"nfs.example.internal\" $rule; record skipped"
  check_has "OpenZFS: a record naming an FSx name that resolves outside the allowance is refused" "$OUT" \
    "ATTENTION $(zparam zfs-outside): server $outside resolves to 10.0.2.2, outside the allowed servers $ALLOWED; record skipped"
  check_eq "OpenZFS: nothing of the refused records is written, made or mounted" \
    "$(grep -c "storage-server:$ZFS_CLUSTER/zfs-" /etc/fstab),$(find /shared -maxdepth 1 -name 'zfs-*' | wc -l),$(grep -c ' /shared/zfs-' /proc/self/mountinfo)" 0,0,0
  before=$(sha256sum /etc/fstab)
  mount_run --cluster "$ZFS_CLUSTER" --server zfs
  check_eq "OpenZFS re-run: exit 0" "$RC" 0
  check_has "OpenZFS re-run: the mount by the DNS name is found in place" "$OUT" "already mounted: $dns:/fsx on /shared/zfs"
  check_eq "OpenZFS re-run: fstab byte for byte the same, one mount" \
    "$(sha256sum /etc/fstab),$(findmnt -rn --mountpoint /shared/zfs | wc -l)" "$before,1"
}

# Records a person with write access to the parameters could forge. Each is reported and leaves no trace in
# fstab, the mount table, directories or /etc/cron.d, and runs no command. A good record beside them still mounts.
refused_records() {
  local before_fstab before_mounts before_cron out_line racer
  # /etc/cron.d's entries and the directory itself, not "..", as /etc changes when fstab is rewritten.
  cron_state() { ls -lA --time-style=full-iso /etc/cron.d && stat -c '%i %Y %a %U' /etc/cron.d; }
  # A link root made in a directory only root writes, under a mount root: refused all the same.
  ln -sfn /etc/cron.d /data/cron-link
  # A directory under a mount root that every user may write, sticky as /tmp, and in it a link to /etc/cron.d
  # that an unprivileged user planted. While the script runs, that user keeps swapping a directory and the link
  # at a second name. That race won 3 times in 25 against a check followed by mount.
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
  # Where root-run code lives, outside the mount roots: nosuid,nodev do not stop root running a planted file.
  put_config evil-opt 127.0.0.2 /export/b /opt/aws
  put_config evil-snap 127.0.0.2 /export/b /snap/bin
  put_config evil-nix 127.0.0.2 /export/b /nix/store
  put_config evil-mnt 127.0.0.2 /export/b /mnt/evil
  put_config evil-planted 127.0.0.2 /export/b /shared/open/proj
  put_config evil-race 127.0.0.2 /export/b /shared/open/race
  # Mounts that would hide something:
  # - soft, whose errors a program may not check;
  # - a nested pair;
  # - a directory holding files, and one with a mount below it;
  # - one a package owns: a real package, installed with dpkg, owning an empty directory under a mount root, so
  #   that only the package database can tell.
  put_config evil-soft 127.0.0.2 /export/b /data/evil-soft nfsvers=4.1,soft,timeo=1,retrans=0
  put_config evil-nest-outer 127.0.0.2 /export/b /data/nest
  put_config evil-nest-inner 127.0.0.3 /export/c /data/nest/inner
  mkdir -p /data/full && echo job >/data/full/job.out
  put_config evil-full 127.0.0.2 /export/b /data/full
  mkdir -p /data/under/local && mount -t tmpfs e2e-local /data/under/local
  put_config evil-under 127.0.0.2 /export/b /data/under
  check "dpkg installs a package owning /data/pkg-dir" install_package_owning /data/pkg-dir
  put_config evil-pkg 127.0.0.2 /export/b /data/pkg-dir
  # 2,000 nested arrays in 4,000 characters, as a standard parameter holds 4,096. json.loads raises
  # RecursionError, which must be reported as one bad record, not stop the whole run with exit 1.
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
  check_has "soft is reported (silent data loss on a timeout)" "$OUT" \
    "ATTENTION $(param evil-soft): options: \"soft\" returns an I/O error after a timeout, which a program may not check"
  check_has "of a nested pair, the outer is reported" "$OUT" \
    "ATTENTION $(param evil-nest-outer): mountPoint \"/data/nest\" holds \"/data/nest/inner\", the mountPoint of server evil-nest-inner"
  check_has "and the inner too" "$OUT" \
    "ATTENTION $(param evil-nest-inner): mountPoint \"/data/nest/inner\" lies below \"/data/nest\", the mountPoint of server evil-nest-outer"
  check_has "a mount point holding files is reported" "$OUT" \
    "ATTENTION $(param evil-full): mountPoint \"/data/full\" holds files on this node (\"job.out\" ...), which a mount would hide"
  check_has "a mount point with a mount below it is reported" "$OUT" \
    "ATTENTION $(param evil-under): mountPoint \"/data/under\": \"/data/under/local\" is mounted below it on this node"
  check_has "a mount point a package owns is reported, by dpkg's database" "$OUT" \
    "ATTENTION $(param evil-pkg): mountPoint \"/data/pkg-dir\": the installed package(s) e2e-site-tool own \"/data/pkg-dir\" on this node"
  check_eq "the files and the mount they would have hidden are still there" \
    "$(cat /data/full/job.out),$(findmnt -rn -o SOURCE --mountpoint /data/under/local)" job,e2e-local
  check_eq "forged records: one ATTENTION line each (20), besides the stale s1 and the malformed s3" \
    "$(grep -c 'ATTENTION /storage-server/vmcluster/storage/evil-' <<<"$OUT")" 20
  check_eq "forged records: fstab is byte for byte the same" "$(sha256sum /etc/fstab)" "$before_fstab"
  check_eq "forged records: the mount table is the same (/proc/self/mountinfo)" "$(cat /proc/self/mountinfo)" "$before_mounts"
  check_eq "forged records: /etc/cron.d is untouched" "$(cron_state)" "$before_cron"
  check_eq "forged records: no directory made for them, no command of theirs run" \
    "$(ls -d /data/evil-suid /data/evil-outside /data/evil-meta /data/x* /opt/aws /snap /nix /mnt/evil /tmp/pwned-* \
      /data/evil-soft /data/nest 2>/dev/null)" ""

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
    "$(grep -c 'ATTENTION /storage-server/vmcluster/storage/evil-' <<<"$OUT"),$(cron_state)" "20,$before_cron"
  umount /data/under/local
  for evil in soft nest-outer nest-inner full under pkg; do ssm DeleteParameter "{\"Name\":\"$(param "evil-$evil")\"}" >/dev/null; done
  refused_roots
}

# install_package_owning <dir>: builds and installs with dpkg a package whose one entry is the empty directory <dir>.
install_package_owning() {
  local pkg=/var/tmp/e2e-site-tool
  mkdir -p "$pkg/DEBIAN" "$pkg$1" &&
    printf '%s\n' 'Package: e2e-site-tool' 'Version: 1.0' 'Architecture: all' 'Maintainer: e2e <e2e@localhost>' \
      'Description: owns one directory for the client-mount e2e' >"$pkg/DEBIAN/control" &&
    dpkg-deb --root-owner-group --build "$pkg" "$pkg.deb" >/dev/null && dpkg -i "$pkg.deb" >/dev/null &&
    [[ $(dpkg-query -S "$1" 2>&1) == "e2e-site-tool: $1" ]]
}

# --mount-roots from a user: a directory the FHS names, such as /opt, is refused before anything is read. A directory
# below one is allowed, as test/integration/client-mount-paths.test.ts checks.
refused_roots() {
  local out rc calls
  calls=$(wc -l <"$AWS_CALLS")
  out=$(PATH=$AWS_WRAP:$PATH bash "$SCRIPT" --cluster "$CLUSTER" --prefix "$PREFIX" --allowed-servers "$ALLOWED" \
    --mount-roots /data,/opt --dry-run 2>&1)
  rc=$?
  check_eq "--mount-roots /data,/opt: exit 1, before any AWS CLI call" "$rc,$(wc -l <"$AWS_CALLS")" "1,$calls"
  check_has "--mount-roots /data,/opt: the message names /opt's kind" "$out" \
    "none of them /, /media /mnt /opt /srv (a directory below one is allowed)"
}
