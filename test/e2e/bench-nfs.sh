#!/usr/bin/env bash
# npm run bench:nfs: sequential 1 MiB fio write and read, direct I/O with fsync at the end, in one boot of
# the e2e VMs that test/e2e/run.sh builds and caches. It runs:
# - locally on the server's striped LV;
# - over NFS from the client VM with the project's settings: the bootstrap's export and nfsd threads, and
#   the published mount options;
# - with a distribution-default export and mount;
# - with the project's settings but an async export.
# Prints MB/s, 10^6 bytes/s, and the NFS/local ratio for each.
#
# The VMs run under software emulation without KVM and share 2 host cores, and NFS crosses an emulated
# network. So the absolute figures measure the emulator, not AWS; the ratios compare configurations on
# equal terms.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/host.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/host.sh"
trap on_exit EXIT

ensure_host_packages
build_image
prepare_run
new_root client
new_root server-bench
for d in bench-b bench-c bench-d; do new_disk "$d" 1G; done
# The data disks bypass the host's page cache, so "local" measures disk I/O, not host memory.
DISK_CACHE=none
SERVER_DISKS=()
virtio_disk SERVER_DISKS bench-b xvdb
virtio_disk SERVER_DISKS bench-c xvdc
virtio_disk SERVER_DISKS bench-d xvdd
CLIENT_DISKS=()
boot_pair bench server-bench "${E2E_BOOT_TIMEOUT:-900}"

grep -ahoE 'E2E INFO bench: .*' "$RUN_DIR"/logs/{server,client}-bench.console | sed 's/^E2E INFO bench: /  /' || true
awk '
  /E2E BENCH / { sub(/.*E2E BENCH /, ""); mbps[$1 " " $2] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
  END {
    printf "\n%-20s %12s %12s %12s %12s\n", "fio seq 1 MiB", "write MB/s", "read MB/s", "write/local", "read/local"
    for (i = 1; i <= n; i++) {
      l = order[i]; w = mbps[l " write"]; r = mbps[l " read"]
      lw = mbps["local write"]; lr = mbps["local read"]
      printf "%-20s %12s %12s %12s %12s\n", l, w, r, (lw > 0 ? sprintf("%.2f", w / lw) : "-"), (lr > 0 ? sprintf("%.2f", r / lr) : "-")
    }
  }' < <(cat "$RUN_DIR"/logs/{server,client}-bench.console | tr -d '\r')
summary
