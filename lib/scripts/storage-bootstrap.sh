#!/usr/bin/env bash
# storage-bootstrap: pools this server's data disks into one striped LVM volume with XFS and exports it
# over NFS to the client CIDRs only. Runs at every boot (storage-bootstrap.service), at every apply of the
# server's SSM association (a changed setting, a grown volume) and by hand; each run converges on the same
# state and keeps every byte, and applies a changed setting live (exportfs -ra, nfsd threads, PV/LV/XFS
# growth) without a reboot or a remount. Settings: /etc/storage-server/bootstrap.env, written by the apply
# document (lib/bootstrap.ts). Works on Amazon Linux 2023 (dnf) and Debian/Ubuntu (apt).
#
# Safety rules: data disks are found by identity (an EBS volume by its id, which Nitro shows as the NVMe
# serial, or by its attachment name, /dev/sdf showing as /dev/xvdf on Xen; instance store by the NVMe
# model or the mapping name), never by guessing. A disk is written only when it is blank, or when it
# already belongs to this script's volume group (name and tag). Anything else stops the run, names the
# disk and what it holds, and writes nothing. On failure the reason is also left in REASON_FILE.
#
# Encryption (STORAGE_ENCRYPTION=luks2: instance store the platform does not encrypt, d2's HDDs): the striped LV
# carries LUKS2 (aes-xts-plain64, a 512-bit key) and the XFS lives on its dm-crypt mapping. The key is 64 random
# bytes in KEY_DIR on the server's encrypted root volume, named by the LUKS UUID; it is made with a fresh array,
# removed when a fresh array replaces that one (a stop/start empties instance store), and written nowhere else.
# A LUKS header this script did not make (another label), or one whose key is not here, is never touched.
#
# The apply document carries this file without its comment-only lines (lib/bootstrap.ts), so no line of data
# (a multi-line string) may start with '#'.
set -Eeuo pipefail
export LC_ALL=C PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# The run lock (fd 8) is inherited by every LVM command, which would warn about it each time.
export LVM_SUPPRESS_FD_WARNINGS=1

ENV_FILE=${STORAGE_BOOTSTRAP_ENV:-/etc/storage-server/bootstrap.env}
REASON_FILE=/run/storage-server/failure-reason
VG=storageserver LV=data TAG=storage-server-bootstrap
KEY_DIR=/etc/storage-server/keys CRYPT=storageserver_data_crypt LUKS_LABEL=storage-server-bootstrap
EXPORTS_FILE=/etc/exports.d/storage-server.exports

log() { echo "storage-bootstrap: $*"; }
die() {
  echo "storage-bootstrap: ERROR: $*" >&2
  { mkdir -p "${REASON_FILE%/*}" && printf '%s\n' "$*" >"$REASON_FILE"; } || true
  exit 1
}
trap 'die "unexpected failure at line $LINENO: $BASH_COMMAND"' ERR
need() { [[ $1 =~ $2 ]] || die "setting $3 '$1' is invalid in $ENV_FILE"; }

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-settings.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-packages.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-disks.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-array.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-luks.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-filesystem.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-nfs.sh"

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-metrics.sh"

# One run at a time: the boot's unit and an apply may overlap.
exec 8>/run/storage-bootstrap.lock
flock 8
rm -f "$REASON_FILE"
load_config
ensure_packages
quiet_nfs
attach_own
find_disks
assemble
unlock
ensure_filesystem
ensure_mounted
grow
configure_nfs
verify
metrics
