#!/usr/bin/env bash
# storage-bootstrap: pools this server's data disks into one striped LVM volume with XFS and exports it over NFS to the
# client CIDRs only. It runs at every boot, by storage-bootstrap.service; at every apply of the server's SSM
# association, for a changed setting or a grown volume; and by hand. Each run converges on the same state and keeps
# every byte. It applies a changed setting live, without a reboot or a remount: exportfs -ra, nfsd threads, PV, LV and
# XFS growth. The settings are in /etc/storage-server/bootstrap.env, written by the apply document of lib/bootstrap.ts.
# It works on Amazon Linux 2023 with dnf and on Debian and Ubuntu with apt.
#
# Safety rules: data disks are found by identity, never by guessing. An EBS volume is found by its id, which Nitro shows
# as the NVMe serial, or by its attachment name, /dev/sdf showing as /dev/xvdf on Xen. Instance store is found by the
# NVMe model or the mapping name. A disk is written only when it is blank, or when it already belongs to this script's
# volume group by name and tag. Anything else stops the run, names the disk and what it holds, and writes nothing. On
# failure the reason is also left in REASON_FILE.
#
# Encryption, with STORAGE_ENCRYPTION=luks2, is for instance store the platform does not encrypt, d2's HDDs. The striped
# LV carries LUKS2, aes-xts-plain64 with a 512-bit key, and the XFS lives on its dm-crypt mapping. The key is 64 random
# bytes in KEY_DIR on the server's encrypted root volume, named by the LUKS UUID. It is made with a fresh array, removed
# when a fresh array replaces that one, and written nowhere else; a stop and start empties instance store. A LUKS header
# this script did not make, by another label, or one whose key is not here, is never touched.
#
# The apply document of lib/bootstrap.ts carries this file without its comment-only lines. So no line of data, such as a
# line of a multi-line string, may start with '#'.
set -Eeuo pipefail
export LC_ALL=C PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# The run lock, fd 8, is inherited by every LVM command, which would warn about it each time.
export LVM_SUPPRESS_FD_WARNINGS=1

ENV_FILE=${STORAGE_BOOTSTRAP_ENV:-/etc/storage-server/bootstrap.env}
REASON_FILE=/run/storage-server/failure-reason
VG=storageserver LV=data TAG=storage-server-bootstrap
KEY_DIR=/etc/storage-server/keys CRYPT=storageserver_data_crypt LUKS_LABEL=storage-server-bootstrap
EXPORTS_FILE=/etc/exports.d/storage-server.exports
# User, group and project quota accounting and enforcement, at every mount from creation on (xfs(5)); group and project
# together need the v5 format, mkfs.xfs's default (crc=1), which this script never turns off.
XFS_QUOTA_OPTIONS=usrquota,grpquota,prjquota

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

. "$(dirname -- "${BASH_SOURCE[0]}")/storage-bootstrap-quotas.sh"

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
apply_quotas
configure_nfs
verify
metrics
