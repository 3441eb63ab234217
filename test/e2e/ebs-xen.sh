# shellcheck shell=bash
# shellcheck disable=SC2034 # SERVER_DISKS is read by lib/host.sh's boot_server
# The ebs-xen group of test/e2e/run.sh, sourced by it: one EBS volume by its Xen name grown live (ebs-xen); three
# NVMe volumes striped, three more added online (ebs-add); with that server as the source, the copy to a second
# server up beside it (copy-target); then its six volumes enlarged while stopped (ebs-add-grown). Uses lib/host.sh's
# helpers and run.sh's hot_swap.

# The host enlarges the running server's disk by qemu block_resize once the server says it waits for it.
grow_xvdf() {
  if wait_console "$1" 'grow-me: waiting for the host' 600 && hmp "$1" "block_resize xvdf 2G" >/dev/null; then
    pass "ebs-xen: the host enlarged the running server's volume (block_resize)"
  else
    fail "ebs-xen: the server never asked for the growth, or block_resize failed"
  fi
}

# Day 2 growth of a single EBS volume by its Xen attachment name, live, on its own server.
ebs_xen() {
  new_root server-xen
  new_disk xen-vol 1G
  SERVER_DISKS=()
  virtio_disk SERVER_DISKS xen-vol xvdf
  PAIR_HOOK=grow_xvdf boot_server ebs-xen server-xen "$BOOT_TIMEOUT"
}

# Growth by added volumes (issue 46): a server on three NVMe volumes grows to six, online, while the client writes.
# The host attaches the three new ones when the server asks, as EC2 attaches volumes a deploy adds.
ebs_add() {
  local d
  new_root server-ebs-add
  for d in 1 2 3 4 5 6; do new_disk "add-$d" 1G; done
  SERVER_DISKS=()
  for d in 1 2 3; do nvme_disk SERVER_DISKS "add-$d" "vol0e2e000000000002$d"; done
  new_root server-copy-target
  new_disk copy-1 1G
  PAIR_HOOK=add_volumes_then_target boot_server ebs-add server-ebs-add "$BOOT_TIMEOUT"
  vm_wait "$BOOT_TIMEOUT" server-copy-target
  collect server-copy-target copy-target server
  # Then, stopped, its six volumes enlarged, 1 -> 2 GiB, as a deploy of larger sizes does to a stopped server.
  for d in 1 2 3 4 5 6; do truncate -s 2G "$RUN_DIR/add-$d.img"; done
  SERVER_DISKS=()
  for d in 1 2 3 4 5 6; do nvme_disk SERVER_DISKS "add-$d" "vol0e2e000000000002$d"; done
  boot_server ebs-add-grown server-ebs-add "$BOOT_TIMEOUT"
}
# Then the copy, with the grown server as its source: once it asks, the host boots the target, a second server
# with one volume, on the second wire. Both are up while the client copies.
add_volumes_then_target() {
  local disks=()
  SWAP_WAIT=$BOOT_TIMEOUT hot_swap "$1" 'add-me: waiting for the host to attach three volumes' ebs-add -- \
    add-4:vol0e2e0000000000024 add-5:vol0e2e0000000000025 add-6:vol0e2e0000000000026
  wait_console "$1" 'copy-me: waiting for the host to boot the target server' "$BOOT_TIMEOUT" ||
    { fail "copy: the source server never asked for the target server" && return 0; }
  log "boot: copy-target"
  nvme_disk disks copy-1 vol0e2e0000000000031
  NET_LISTENER=client WIRE=2 vm_start server-copy-target server copy-target server-copy-target "${SERVER_VCPUS:-2}" "${disks[@]}"
}
