# shellcheck shell=bash
# storage-bootstrap, its packages: the NFS server, LVM, XFS and LUKS tools, installed only when one is missing. Part of
# storage-bootstrap.sh, which reads it from beside itself. The server gets its text, less this opening comment, in place
# of the line that reads it: see lib/script-parts.ts.

# Installs the server packages only when a tool is missing, since the image may carry them, offline.
ensure_packages() {
  local c tools=(lvcreate mkfs.xfs exportfs nfsconf wipefs)
  [[ $STORAGE_ENCRYPTION == none ]] || tools+=(cryptsetup)
  for c in "${tools[@]}"; do
    command -v "$c" >/dev/null && continue
    log "$c is missing: installing the NFS server, lvm2, xfsprogs and cryptsetup"
    if command -v dnf >/dev/null; then
      dnf install -y nfs-utils lvm2 xfsprogs cryptsetup
    elif command -v apt-get >/dev/null; then
      apt-get update -q &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q nfs-kernel-server lvm2 xfsprogs cryptsetup-bin
    else
      die "$c is missing and there is neither dnf nor apt-get to install it"
    fi
    return
  done
}
