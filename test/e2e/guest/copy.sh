# shellcheck shell=bash
# shellcheck disable=SC2034 # OUT and RC are read by the stages that source this file
# The copy of npm run copy (issue 46), lib/scripts/storage-copy.sh run on a cluster node as the copy document runs
# it, between two server VMs over NFS: the ebs-add server, the source, on the first wire, and a second server, the
# target, on a second wire whose other end is the client's second NIC. Sourced by the server and client stages.
# The tree is written on the source's own file system and checked on the target's, not through NFS: each server
# sends the client its manifest's hash, which the client hands on to the target.

COPY_SCRIPT=$CTL/scripts/storage-copy.sh
COPY_SOURCE=/data/cp-old
COPY_TARGET=/data/cp-new

# The tree, written on the source server's own file system under $1: a hard link across two top-level entries, a
# sparse file, an ACL, an xattr, and an owner the node has no name for.
copy_tree() {
  local s=$1 x
  mkdir -p "$s/a" "$s/b/c" && echo hello >"$s/a/f" && ln "$s/a/f" "$s/b/link" &&
    truncate -s 16M "$s/b/sparse" && printf x | dd of="$s/b/sparse" bs=1 seek=8M conv=notrunc status=none &&
    setfacl -m u:1234:rw "$s/a/f" && setfattr -n user.tag -v blue "$s/b/c" && chown -h 2000:3000 "$s/b/c" || return 1
  for x in 1 2 3 4 5 6; do mkdir -p "$s/d$x" && head -c 256K /dev/urandom >"$s/d$x/data" || return 1; done
}

# Every file's path, type, owner, mode and content hash under $1, as its own server sees it, leaving out what the
# copy never copies (a server's state, the copy's marker). A directory's size depends on its file system's history.
COPY_NEVER=(\( -path ./.storage-server -o -path ./.storage-copy -o -path ./.storage-bench -o -path ./lost+found \) -prune -o)
copy_manifest() {
  (cd "$1" && find . "${COPY_NEVER[@]}" -printf '%p %y %U:%G %m\n' | sort &&
    find . "${COPY_NEVER[@]}" -type f -print0 | sort -z | xargs -0 -r sha256sum)
}
copy_manifest_hash() { copy_manifest "$1" | sha256sum | cut -c1-64; }

# On the client: copy_run [args...]: the script as the document runs it, from the source's mount to the target's.
# Output in $OUT, status in $RC.
copy_run() {
  OUT=$(bash "$COPY_SCRIPT" --source "$COPY_SOURCE" --target "$COPY_TARGET" --from e2e-add/storage1 --streams 2 "$@" 2>&1)
  RC=$?
  printf '%s\n' "$OUT" | sed 's/^/    | /'
}
# The JSON line's field $1, from $OUT.
copy_field() { python3 -c 'import json, sys; print(json.loads(sys.argv[2].strip().splitlines()[-1])[sys.argv[1]])' "$1" "$OUT" 2>/dev/null; }
# to_target <send|recv|recv_any> <args...>: the hand-shake with the target server, on the second wire.
to_target() { SERVER_IP=$TARGET_IP PORT=$TARGET_PORT "$@"; }
