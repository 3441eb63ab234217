# shellcheck shell=bash
# Part of the e2e scenario "client-mount", sourced by client-mount-stage.sh: the copy of npm run copy,
# lib/scripts/storage-copy.sh, run on this node as the copy document runs it, between two NFS servers of the
# cluster. Two XFS file systems stand in for the two servers' data, each exported on its own loopback address and
# mounted here over NFSv4.2, as the client association mounts a cluster's servers. What the copy made is checked
# on the target's own file system, not through NFS. A second VM would make the servers real machines; the
# exports, the NFS mounts and the file systems here are the same kernel code at a fraction of a boot.

COPY_SRV=/srv/e2e-copy
COPY_SCRIPT=$CTL/scripts/storage-copy.sh

# copy_run <target mount point>: the script as the document runs it, source /data/cp-old. Output in $OUT, status in $RC.
copy_run() {
  OUT=$(bash "$COPY_SCRIPT" --source /data/cp-old --target "$1" --from "$CLUSTER/old" --streams 2 "${@:2}" 2>&1)
  RC=$?
  printf '%s\n' "$OUT" | sed 's/^/    | /'
}
# The JSON line's field $1, from $OUT.
copy_field() { python3 -c 'import json, sys; print(json.loads(sys.argv[2].strip().splitlines()[-1])[sys.argv[1]])' "$1" "$OUT" 2>/dev/null; }

copy_servers() {
  local x
  modprobe loop 2>/dev/null || true
  for x in old new squashed; do
    mkdir -p "$COPY_SRV/$x" && truncate -s 512M "/var/tmp/e2e-copy-$x.img" && mkfs.xfs -q -f "/var/tmp/e2e-copy-$x.img" &&
      mount -o loop "/var/tmp/e2e-copy-$x.img" "$COPY_SRV/$x" || return 1
  done
  # old and new without root squash, as for the copying node; squashed with it, as an EC2 server exports to every
  # client. Every mount here comes from 127.0.0.1, so the squash is a third server's, not a second entry's.
  printf '%s\n' "$COPY_SRV/old 127.0.0.0/8(rw,sync,no_subtree_check,no_root_squash)" \
    "$COPY_SRV/new 127.0.0.0/8(rw,sync,no_subtree_check,no_root_squash)" \
    "$COPY_SRV/squashed 127.0.0.0/8(rw,sync,no_subtree_check,root_squash)" >/etc/exports.d/e2e-copy.exports
  exportfs -ra || return 1
  mkdir -p /data/cp-old /data/cp-new /data/cp-squashed
  mount -t nfs4 -o vers=4.2,hard 127.0.0.9:$COPY_SRV/old /data/cp-old &&
    mount -t nfs4 -o vers=4.2,hard 127.0.0.10:$COPY_SRV/new /data/cp-new &&
    mount -t nfs4 -o vers=4.2,hard 127.0.0.11:$COPY_SRV/squashed /data/cp-squashed
}

# The tree, written on the source server's own file system: a hard link across two top-level entries, a sparse
# file, an ACL, an xattr, and an owner this node has no name for.
copy_tree() {
  local s=$COPY_SRV/old
  mkdir -p "$s/a" "$s/b/c" && echo hello >"$s/a/f" && ln "$s/a/f" "$s/b/link" &&
    truncate -s 64M "$s/b/sparse" && printf x | dd of="$s/b/sparse" bs=1 seek=32M conv=notrunc status=none &&
    setfacl -m u:1234:rw "$s/a/f" && setfattr -n user.tag -v blue "$s/b/c" && chown -h 2000:3000 "$s/b/c" &&
    for x in 1 2 3 4 5 6; do mkdir -p "$s/d$x" && head -c 1M /dev/urandom >"$s/d$x/data"; done
}

# Every file's path, type, owner, mode and content hash, for a tree as its own server sees it (a directory's size
# depends on its file system's history, and the target's top directory holds the marker).
copy_manifest() {
  (cd "$1" && find . -path ./.storage-copy -prune -o -printf '%p %y %U:%G %m\n' | sort &&
    find . -type f ! -name .storage-copy -print0 | sort -z | xargs -0 sha256sum)
}

copy_between_servers() {
  local t=$COPY_SRV/new
  check "copy: two XFS file systems exported on 127.0.0.9 and .10, mounted over NFSv4.2 (the servers)" copy_servers || return 0
  check "copy: the source tree: hard links, a sparse file, an ACL, an xattr, a foreign owner" copy_tree
  copy_run /data/cp-new
  check_eq "copy: exit 0" "$RC" 0
  check_eq "copy: the node's line says no difference after the copy" "$(copy_field differences)" 0
  check_eq "copy: on the target's own file system, every file, owner, mode and content as on the source's" \
    "$(diff <(copy_manifest "$COPY_SRV/old") <(copy_manifest "$t") | head -n 6)" ""
  check_eq "copy: on the target's file system, the hard link across two top-level entries is one inode" \
    "$(stat -c %i "$t/a/f")" "$(stat -c %i "$t/b/link")"
  check "copy: on the target's file system, the sparse file holds under 1 MiB of its 64 MiB" \
    bash -c "(( \$(du -k '$t/b/sparse' | cut -f1) < 1024 ))"
  check_has "copy: on the target's file system, the ACL" "$(getfacl -p "$t/a/f" 2>&1)" user:1234:rw-
  check_eq "copy: on the target's file system, the xattr" "$(cd "$t" && getfattr --only-values -n user.tag b/c 2>&1)" blue
  check_eq "copy: on the target's file system, the owner as numbers" "$(stat -c %u:%g "$t/b/c")" 2000:3000

  copy_run /data/cp-new
  check_eq "copy: a second run, nothing changed: exit 0, 0 files copied" "$RC,$(copy_field copied)" 0,0
  # Through the NFS mount, as a client writes: written on the server's own file system instead, the change would
  # wait for this node's attribute cache to expire.
  echo more >>/data/cp-old/d3/data && echo new >/data/cp-old/d5/new
  copy_run /data/cp-new
  check_eq "copy: a run after one file changed and one was added: exit 0, 2 files copied" "$RC,$(copy_field copied)" 0,2
  check_eq "copy: and the target's file system has both" \
    "$(tail -c 5 "$t/d3/data"),$(cat "$t/d5/new")" "more,new"
  copy_run /data/cp-new --mode verify
  check_eq "copy: --mode verify: exit 0, no difference" "$RC,$(copy_field differences)" 0,0

  copy_run /data/cp-squashed
  check_eq "copy: into a server whose export squashes root: refused (exit 1)" "$RC" 1
  check_has "copy: and the refusal says why" "$OUT" "the export squashes root"
  check_eq "copy: and nothing was written there" "$(ls -A "$COPY_SRV/squashed")" ""
  umount /data/cp-old /data/cp-new /data/cp-squashed
}
