# shellcheck shell=bash disable=SC2153 # THREADS: set by the settings part
# storage-bootstrap, the NFS export: the server scope and state directories, the systemd drop-ins, nfs.conf and the
# exports file applied live, and the check that the export is live for every client CIDR. Part of storage-bootstrap.sh,
# which reads it from beside itself. The server gets its text, less this opening comment, in place of the line that
# reads it: see lib/script-parts.ts.

# The directory at the top of the data file system that holds the NFS server's own state, .storage-server, root's only.
# Clients see its name and nothing in it, being 0700 and root squashed. Anything there this script did not make is
# refused, since a link could lead root's chmod elsewhere.
state_dirs() {
  local d
  for d in "$STATE_DIR" "$CLD_DIR"; do
    [[ -e $d || -L $d ]] || mkdir -m 0700 "$d"
    [[ -d $d && ! -L $d && $(stat -c %u "$d") == 0 ]] ||
      die "$d is not a directory of root's (a link, a file, or another owner's): refusing to keep NFS state there"
    chmod 0700 "$d"
  done
}

# The cluster benchmark's scratch directory at the top of the data file system, for lib/scripts/cluster-bench.sh. It is
# root's and 1777 like /tmp, because the nodes run the benchmark as root, which the export squashes to nobody. Each run
# removes its own files. Anything else of that name, such as a link, a file or someone's directory, is left alone with a
# warning: the export matters more than the benchmark, which then refuses to run.
bench_dir() {
  local d=$STORAGE_EXPORT_PATH/.storage-bench
  [[ -e $d || -L $d ]] || mkdir -m 1777 "$d"
  if [[ -d $d && ! -L $d && $(stat -c %u "$d") == 0 ]]; then
    chmod 1777 "$d"
  else
    log "WARNING: $d is not a directory of root's (a link, a file, or another owner's): the cluster benchmark has no scratch"
  fi
}

# in_scope <command...>: runs the command with the host name set to the server scope, in a UTS namespace of its own. The
# kernel copies the host name into nfsd's scope whenever nfsd's threads are set.
in_scope() { unshare --uts /bin/sh -c "echo \"\$0\" >/proc/sys/kernel/hostname && exec \"\$@\"" "$SCOPE" "$@"; }

# systemd drop-ins. nfs-server starts nfsd in the server scope, as the ClusterLabs nfsserver agent does for failover
# pairs. nfsdcld starts only once the data file system is mounted, so that it never makes its database on the root
# volume underneath the mount point. Each unit reads them at its next start.
nfs_units() {
  local unit text changed=0
  unit=/etc/systemd/system/nfs-server.service.d/storage-server.conf
  text="# Managed by storage-bootstrap: nfsd's NFSv4 server scope is the server's identity, not the host name."
  text+=$'\n'"[Service]"$'\n'"ExecStart="$'\n'"ExecStart=$(command -v unshare) --uts /bin/sh -c"
  text+=" 'echo \"\$\$0\" >/proc/sys/kernel/hostname && exec $(command -v rpc.nfsd)' '$SCOPE'"
  if [[ $(cat "$unit" 2>/dev/null) != "$text" ]]; then
    mkdir -p "${unit%/*}" && printf '%s\n' "$text" >"$unit"
    log "nfs-server starts nfsd in NFSv4 server scope $SCOPE"
    changed=1
  fi
  unit=/etc/systemd/system/nfsdcld.service.d/storage-server.conf
  text="# Managed by storage-bootstrap: nfsdcld keeps its records on the data file system."$'\n'"[Unit]"$'\n'
  text+="RequiresMountsFor=$CLD_DIR"
  if [[ $(cat "$unit" 2>/dev/null) != "$text" ]]; then
    mkdir -p "${unit%/*}" && printf '%s\n' "$text" >"$unit"
    changed=1
  fi
  ((changed == 0)) || systemctl daemon-reload
  systemctl cat nfsdcld.service >/dev/null 2>&1 ||
    log "WARNING: nfsdcld is not installed: a replacement server cannot let clients reclaim their locks"
}

# A new instance's nfs-server, started by its package or image, serves nothing of ours yet, in the scope of its host
# name. It is stopped before this server's address and volumes arrive, so that no client of the server it replaces meets
# it. configure_nfs starts it in the server's scope.
quiet_nfs() {
  mountpoint -q "$STORAGE_EXPORT_PATH" && return 0
  systemctl is-active -q nfs-server.service || return 0
  log "stopping nfs-server until it serves the data file system in scope $SCOPE"
  systemctl stop nfs-server.service
}

# nfs.conf [nfsd] threads and versions, and the exports file, applied live: new exports by exportfs -ra, a new thread
# count through /proc/fs/nfsd/threads. Only a change of NFS versions restarts nfs-server, since the kernel takes
# versions only while nfsd is stopped; clients' hard mounts wait through the grace period.
configure_nfs() {
  local restart=0 threads=0 cld=0 v on cidr clients="" text
  for v in threads vers3 vers4 vers4.0 vers4.1 vers4.2; do
    case $v in
      threads) on=$THREADS ;;
      vers4) [[ " $STORAGE_NFS_VERSIONS" == *" 4."* ]] && on=y || on=n ;;
      *) [[ " $STORAGE_NFS_VERSIONS " == *" ${v#vers} "* ]] && on=y || on=n ;;
    esac
    [[ $(nfsconf --get nfsd "$v" 2>/dev/null || true) == "$on" ]] && continue
    nfsconf --set nfsd "$v" "$on"
    if [[ $v == threads ]]; then threads=1; else restart=1; fi
  done
  # The server scope, and where nfsdcld keeps its client records: both are read when nfsd and nfsdcld start, at boot, on
  # a replacement, or on a restart below. A serving nfs-server is never restarted for them alone: its clients would take
  # the new scope for another server and give up their locks.
  state_dirs
  bench_dir
  nfs_units
  if [[ $(nfsconf --get nfsdcld storagedir 2>/dev/null || true) != "$CLD_DIR" ]]; then
    v=$(nfsconf --get nfsdcld storagedir 2>/dev/null || echo /var/lib/nfs/nfsdcld)
    # The records so far go along; the database is copied only where there is none yet.
    [[ -e $CLD_DIR/main.sqlite || ! -f $v/main.sqlite ]] || cp -p "$v/main.sqlite" "$CLD_DIR/main.sqlite"
    nfsconf --set nfsdcld storagedir "$CLD_DIR"
    log "nfsdcld keeps its client records in $CLD_DIR (from its next start)"
    cld=1
  fi
  # mp: exported only while the file system is mounted there, never the bare directory underneath. The root clients
  # come first, as each lies within a client CIDR and exports(5) says: "if a client matches more than one of the same
  # type of specification (e.g. two netgroups), then the first match from the order they appear on the export line
  # takes precedence" (two IP networks here; the ebs-xen VM stage checks root's chown). A client CIDR that is also a
  # root client's is listed once, as the root client's.
  for cidr in $STORAGE_ROOT_CLIENT_CIDRS; do clients+=" $cidr(rw,$STORAGE_EXPORT_MODE,no_subtree_check,no_root_squash,sec=sys,mp)"; done
  for cidr in $STORAGE_CLIENT_CIDRS; do
    [[ " $STORAGE_ROOT_CLIENT_CIDRS " == *" $cidr "* ]] ||
      clients+=" $cidr(rw,$STORAGE_EXPORT_MODE,no_subtree_check,root_squash,sec=sys,mp)"
  done
  text="# Managed by storage-bootstrap ($ENV_FILE); rewritten at every boot."$'\n'"$STORAGE_EXPORT_PATH$clients"
  if [[ $(cat "$EXPORTS_FILE" 2>/dev/null) != "$text" ]]; then
    mkdir -p "${EXPORTS_FILE%/*}" && printf '%s\n' "$text" >"$EXPORTS_FILE"
    log "exports: $STORAGE_EXPORT_PATH$clients"
  fi
  systemctl is-enabled -q nfs-server.service || systemctl enable -q nfs-server.service
  if ((restart)) || ! systemctl is-active -q nfs-server.service; then
    log "starting nfs-server ($THREADS threads, NFS $STORAGE_NFS_VERSIONS, scope $SCOPE)"
    systemctl stop nfs-server.service
    # nfsdcld outlives nfs-server: restarted here so that it opens its records where they now live.
    ((cld == 0)) || systemctl try-restart nfsdcld.service || true
    systemctl start nfs-server.service
    return
  fi
  if ((threads)) || [[ $(cat /proc/fs/nfsd/threads 2>/dev/null) != "$THREADS" ]]; then
    log "nfsd threads: $THREADS (live)"
    in_scope sh -c "echo \"\$1\" >/proc/fs/nfsd/threads" threads "$THREADS"
  fi
  exportfs -ra
}

# Success only when the export is live for every client CIDR and nfsd runs the threads asked for.
verify() {
  local live cidr opts
  live=$(exportfs -s | awk -v p="$STORAGE_EXPORT_PATH" '$1 == p { $1 = ""; print }')
  for cidr in $STORAGE_CLIENT_CIDRS; do
    [[ $live == *" $cidr("* ]] || die "$STORAGE_EXPORT_PATH is not exported to $cidr (exportfs -s: ${live:-nothing})"
  done
  for cidr in $STORAGE_ROOT_CLIENT_CIDRS; do
    opts=${live#* "$cidr("} && opts=${opts%%)*}
    [[ $live == *" $cidr("* && ",$opts," == *,no_root_squash,* ]] ||
      die "$STORAGE_EXPORT_PATH is not exported to root client $cidr with no_root_squash (exportfs -s: ${live:-nothing})"
  done
  [[ $(cat /proc/fs/nfsd/threads 2>/dev/null) == "$THREADS" ]] || die "nfsd does not run $THREADS threads"
  log "export live: $STORAGE_EXPORT_PATH to $STORAGE_CLIENT_CIDRS ($STORAGE_EXPORT_MODE, NFS $STORAGE_NFS_VERSIONS," \
    "$THREADS nfsd threads, ${#DISKS[@]} disks)"
}
