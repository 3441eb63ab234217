#!/bin/bash
# Test image only: runs the e2e stage named on the kernel command line by e2e.role= and e2e.stage=. It
# runs from the harness's read-only control disk, virtio serial "e2ectl", then powers the VM off so qemu
# exits.
set -u
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^e2e\.$1=//p"; }
role=$(arg role) stage=$(arg stage) addr=$(arg ip)
echo "E2E BOOT role=$role stage=$stage"
# udev loads the NIC's driver: with no udev settle before this unit, eth0 may not exist yet.
udevadm settle --timeout=30 || true
if [[ -n $addr ]]; then
  for _ in $(seq 150); do [[ -e /sys/class/net/eth0 ]] && break; sleep 0.2; done
  ip link set eth0 up && ip addr add "$addr" dev eth0
fi
rc=99
mkdir -p /e2e
if mount -o ro,noload /dev/disk/by-id/virtio-e2ectl /e2e; then
  bash /e2e/guest/stage.sh "$role" "$stage"
  rc=$?
else
  echo "E2E FAIL $role/$stage: control disk not found"
fi
echo "E2E STAGE-END role=$role stage=$stage rc=$rc"
sync
systemctl poweroff --no-block
