#!/usr/bin/env bash
# npm run test:e2e: the server bootstrap, lib/scripts/storage-bootstrap.sh, installed and run by the very
# user data lib/bootstrap.ts renders, in real Linux VMs. Each is a Debian root built by debootstrap with the
# distribution's kernel, booted by qemu under software emulation, as KVM is not usable here. Virtual disks
# stand in for instance store, as virtio disks named like Xen shows them, and for EBS, as NVMe disks whose
# serials are volume ids. A second VM is the NFS client, on a private virtual wire between the two.
#
# Boots, 13 server VMs, one at a time but the copy's two; one client VM stays up through all, runs its part of each:
#   fresh       scenario 1: first boot, 3 blank instance-store disks -> striped LV, LUKS2, XFS, export,
#               signal. The server encrypts d2's instance store: the host finds none of the export's plain
#               text on the disks.
#   reboot      scenarios 2 and 3: the array is unlocked with its key and the export comes back by itself;
#               a re-run by hand changes nothing
#   stop-start  scenario 5: new blank instance-store disks, NVMe as on Nitro, found by their model beside
#               an NVMe EBS volume -> rebuilt with a new key, the other removed, and exported again.
#               Then by hand, 5c: the key missing, and a LUKS header the bootstrap did not make -> refused,
#               the LV's header and data unchanged. Then by hand, 5b: the host swaps the three disks for
#               two blank ones, two of the type's three -> waits for the count, then fails, builds nothing
#               on the two
#   foreign     scenario 4: disks with foreign XFS / LVM / partition table / LUKS -> refused, signalled, untouched
#   ebs         scenario 6: 2 volumes by id among decoys, the 2nd attached while the bootstrap waits
#   ebs-grow    day 2: both volumes enlarged while stopped -> PVs, LV and XFS grown at boot; re-apply no-op
#   replace     the ebs-grow server shuts down under a client writing a locked file on a hard mount. A new
#               server with a new root disk boots with the same volumes and address: the client's I/O
#               resumes. Then by hand, ebs-missing of scenario 6: the host detaches volume 2 -> the apply
#               waits, then fails naming the volume id, volume 1 unwritten
#   ebs-xen     day 2: one volume by its Xen attachment name, enlarged while running -> grown live by the apply
#   ebs-add     day 2: three volumes striped, three more attached while the client writes -> a second segment of
#               the same LV, XFS grown live, nothing lost (in the ebs-xen group)
#   copy-target npm run copy's node script: the grown ebs-add server is the source, a second server up beside it on
#               a second wire the target; the client copies, the servers check their own file systems (ebs-xen group)
#   ebs-add-grown  the ebs-add server's six volumes enlarged while stopped -> both LV segments grown at boot
#   restore     a mixture of two servers' restored disks -> refused, untouched; then the host swaps them for
#               one server's disks -> adopted by the apply
#   client-mount  lib/scripts/client-mount.sh on a cluster node, from test/e2e/client-mount.sh
# Scenario 7, the snapshot freeze, runs inside "ebs": a missing lib/scripts/snapshot-freeze.sh fails it.
# The "reboot" boot also applies a changed client CIDR and thread count live, and applies the old ones back.
#
# Prints "PASS ..." / "FAIL ..." per assertion and ends with "N passed, M failed"; exits non-zero on any
# failure. Every wait is bounded. The cache of the image, last run's disks and consoles is test/e2e/.cache.
# E2E_ONLY=instance-store|foreign|ebs|ebs-xen|client-mount runs one group; foreign needs instance-store's
# disks. E2E_RUN_DIR puts a run's disks and consoles elsewhere than test/e2e/.cache/run.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/host.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/host.sh"
trap on_exit EXIT

BOOT_TIMEOUT=${E2E_BOOT_TIMEOUT:-480}
start=$SECONDS
declare -A before=()

# Scenarios 1, 2, 3 and 5 on three instance-store disks. Meanwhile the client formats the foreign disks of
# scenario 4, as content another machine made.
instance_store() {
  local d
  new_root server-is
  # 2 GiB each: the live settings' quotas are whole GiB, checked by fallocate, which writes nothing.
  for d in is-b is-c is-d; do new_disk "$d" 2G; done
  SERVER_DISKS=()
  virtio_disk SERVER_DISKS is-b xvdb
  virtio_disk SERVER_DISKS is-c xvdc
  virtio_disk SERVER_DISKS is-d xvdd
  boot_server fresh server-is "$BOOT_TIMEOUT"
  # The server wrote 4 MiB of a known text into its encrypted export: no disk may hold it in the clear.
  for d in is-b is-c is-d; do
    if grep -q -a -F storage-server-e2e-plaintext-marker "$RUN_DIR/$d.img"; then
      fail "fresh: disk $d holds the export's plain text: the array is not encrypted at rest"
    else
      pass "fresh: disk $d holds none of the export's plain text (host search of the image)"
    fi
  done

  boot_server reboot server-is "$BOOT_TIMEOUT"

  # A stop/start gives an instance new, blank instance-store disks. They come back as Nitro instance store:
  # NVMe, model "Amazon EC2 NVMe Instance Storage", as on a d3. The image's e2e-nvme-models presents the
  # model qemu cannot set. Beside them is a blank EBS volume, NVMe, model "Amazon Elastic Block Store", that
  # must not be taken: the bootstrap finds instance store on Nitro by that identity, not by the mapping names.
  for d in is-b is-c is-d nitro-ebs; do new_disk "$d"; done
  before[nitro-ebs]=$(disk_hash nitro-ebs)
  SERVER_DISKS=()
  nvme_disk SERVER_DISKS nitro-ebs vol0e2e0000000000031
  nvme_disk SERVER_DISKS is-b AWS0E2E00000000000B
  nvme_disk SERVER_DISKS is-c AWS0E2E00000000000C
  nvme_disk SERVER_DISKS is-d AWS0E2E00000000000D
  # Then by hand, scenario 5b: two of the type's three NVMe instance-store disks have appeared. The host swaps
  # the three for two blank ones with swap_instance_store. The bootstrap counts them against the mapping,
  # waits, then fails, and never builds on the two it sees. Half as long again as a boot: it is two scenarios.
  for d in is-e is-f; do new_disk "$d"; before[$d]=$(disk_hash "$d"); done
  PAIR_HOOK=swap_instance_store boot_server stop-start server-is "$((BOOT_TIMEOUT * 3 / 2))"
  if [[ $(disk_hash nitro-ebs) == "${before[nitro-ebs]}" ]]; then
    pass "stop-start: every byte of the EBS volume beside the NVMe instance store is unchanged (host checksum)"
  else
    fail "stop-start: the EBS volume beside the NVMe instance store was written"
  fi
  for d in is-e is-f; do
    if [[ $(disk_hash "$d") == "${before[$d]}" ]]; then
      pass "is-missing: disk $d is unchanged by the apply that must not build on it (host checksum)"
    else
      fail "is-missing: disk $d was written"
    fi
  done
  bench_report client
}

# hot_swap <vm> <console line> <scenario> <serials...> -- <image:serial...>: once the VM's console shows the
# line, when the server has stopped serving, the host unplugs those NVMe disks and plugs these by PCI
# hot-unplug and hot-plug. So EC2 detaches and attaches volumes, and a stop/start brings other instance store.
# With no serials before --, it only attaches. SWAP_WAIT bounds the wait for the line (half a boot more by default).
hot_swap() {
  local vm=$1 line=$2 scen=$3 ok=1 arg
  shift 3
  wait_console "$vm" "$line" "${SWAP_WAIT:-$((BOOT_TIMEOUT * 3 / 2))}" || ok=0
  while (($#)) && [[ $1 != -- ]]; do
    ((ok)) && { hmp "$vm" "device_del $1" >/dev/null || ok=0; }
    shift
  done
  shift
  for arg; do
    ((ok)) && { hmp "$vm" "drive_add 0 if=none,id=d${arg#*:},file=$RUN_DIR/${arg%%:*}.img,format=raw" >/dev/null &&
      hmp "$vm" "device_add nvme,drive=d${arg#*:},serial=${arg#*:},id=${arg#*:}" >/dev/null || ok=0; }
  done
  if ((ok)); then
    pass "$scen: the host changed the server's disks as asked (device_del, drive_add, device_add)"
  else
    fail "$scen: the server never asked for its disks to be swapped, or a hot-unplug or hot-plug failed"
  fi
}
# Scenario 5b: the three instance-store disks go, two blank ones come.
swap_instance_store() {
  hot_swap "$1" 'swap-me: waiting for the host to replace the instance-store disks' is-missing \
    AWS0E2E00000000000B AWS0E2E00000000000C AWS0E2E00000000000D -- is-e:AWS0E2E00000000000E is-f:AWS0E2E00000000000F
}

# Scenario 4: a blank disk next to a foreign XFS, a foreign LVM volume group, a partition table and LUKS.
foreign() {
  local d
  new_root server-foreign
  new_disk foreign-blank
  for d in foreign-blank prep-xfs prep-lvm prep-gpt prep-luks; do before[$d]=$(disk_hash "$d"); done
  SERVER_DISKS=()
  virtio_disk SERVER_DISKS foreign-blank xvdb
  virtio_disk SERVER_DISKS prep-xfs xvdc
  virtio_disk SERVER_DISKS prep-lvm xvdd
  virtio_disk SERVER_DISKS prep-gpt xvde
  virtio_disk SERVER_DISKS prep-luks xvdf
  boot_server foreign server-foreign "$BOOT_TIMEOUT"
  for d in foreign-blank prep-xfs prep-lvm prep-gpt prep-luks; do
    if [[ $(disk_hash "$d") == "${before[$d]}" ]]; then
      pass "foreign: every byte of disk $d is unchanged (host checksum of the image)"
    else
      fail "foreign: disk $d was written"
    fi
  done
}

# The host attaches volume 2 by PCI hot-plug only once the bootstrap says it is waiting for it.
attach_volume_2() {
  if wait_console "$1" 'waiting for EBS volume vol-0e2e0000000000002' 300 &&
    hmp "$1" "drive_add 0 if=none,id=vol2,file=$RUN_DIR/vol-2.img,format=raw" >/dev/null &&
    hmp "$1" "device_add nvme,drive=vol2,serial=vol0e2e0000000000002,id=nvme-vol2" >/dev/null; then
    pass "ebs: the host attached volume 2 while the bootstrap was waiting for it"
  else
    fail "ebs: the bootstrap never said it was waiting for volume 2, or the hot-plug failed"
  fi
}

# Scenario 6, with 7 inside it: EBS volumes by id among decoys. Its second half, volume 2 missing, runs by
# hand at the end of the replacement.
ebs() {
  local d
  new_root server-ebs
  for d in decoy-3 decoy-prefix decoy-virtio; do new_disk "$d"; done
  new_disk vol-1 1G
  new_disk vol-2 1G
  SERVER_DISKS=()
  nvme_disk SERVER_DISKS decoy-3 vol0e2e0000000000003     # another volume of the account
  nvme_disk SERVER_DISKS vol-1 vol0e2e0000000000001       # data volume 1, /dev/sdf
  nvme_disk SERVER_DISKS decoy-prefix vol0e2e000000000000 # a prefix of both ids
  virtio_disk SERVER_DISKS decoy-virtio decoy
  for d in decoy-3 decoy-prefix decoy-virtio; do before[$d]=$(disk_hash "$d"); done
  SERVER_VCPUS=3 PAIR_HOOK=attach_volume_2 boot_server ebs server-ebs "$BOOT_TIMEOUT"

  # Day 2 growth: the stack enlarged both volumes from 1 to 2 GiB while the server was stopped. The same
  # boot is then the server that a replacement takes over from.
  SERVER_DISKS=()
  nvme_disk SERVER_DISKS vol-1 vol0e2e0000000000001
  nvme_disk SERVER_DISKS vol-2 vol0e2e0000000000002
  truncate -s 2G "$RUN_DIR/vol-1.img" "$RUN_DIR/vol-2.img"
  # The replacement ends with scenario 6's second half by hand. detach_volume_2 detaches volume 2; the apply
  # waits 40 s for it, then fails naming it. Volume 1 must not be written: it is hashed when volume 2 goes.
  grow_then_replace
  if [[ -n ${before[vol-1]:-} && $(disk_hash vol-1) == "${before[vol-1]}" ]]; then
    pass "ebs-missing: every byte of volume 1 is unchanged by the apply refused without volume 2 (host checksum)"
  else
    fail "ebs-missing: volume 1 was written by the apply refused without volume 2 (or never hashed)"
  fi
  for d in decoy-3 decoy-prefix decoy-virtio; do
    if [[ $(disk_hash "$d") == "${before[$d]}" ]]; then
      pass "ebs: decoy $d is unchanged by the boot that must not take it (host checksum)"
    else
      fail "ebs: decoy $d was written"
    fi
  done
}

# The host detaches volume 2 by PCI hot-unplug once the replacement has stopped serving and deactivated
# the volume group. Volume 1 is hashed then, before the apply that must not write it.
detach_volume_2() {
  if wait_console "$1" 'detach-me: waiting for the host to detach volume 2' "$BOOT_TIMEOUT" &&
    before[vol-1]=$(disk_hash vol-1) &&
    hmp "$1" "device_del vol0e2e0000000000002" >/dev/null; then
    pass "ebs-missing: the host detached volume 2 from the running replacement (device_del)"
  else
    fail "ebs-missing: the replacement never asked for volume 2's detachment, or device_del failed"
  fi
}

# bench_report <client label>: what npm run bench:cluster does with a node's output, run by
# test/e2e/lib/bench-report.ts on the line the client VM's cluster-bench printed. With one node, the report's
# aggregate must be that node's own bytes over its own time, beside the estimate, with nothing counted as failed.
bench_report() {
  local line report got want
  line=$(grep -aoE 'E2E INFO cluster-bench: result: \{[^}]*\}' "$RUN_DIR/logs/$1.console" | tail -n 1 |
    sed 's/^E2E INFO cluster-bench: result: //') || true
  if [[ -z $line ]]; then
    fail "cluster-bench: the client printed no result line to aggregate"
    return
  fi
  if ! report=$(cd "$REPO_DIR" && ts-node --transpile-only test/e2e/lib/bench-report.ts "$line" 2>&1); then
    fail "cluster-bench: bench:cluster's aggregate failed on the node's line: ${report##*$'\n'}"
    return
  fi
  log "bench:cluster's report of the VM run:"
  sed -n '/^Cluster benchmark/,/^Aggregate:/p' <<<"$report" | sed 's/^/    | /' >&2
  got=$(grep -E '^aggregate ' <<<"$report" | tail -n 1)
  # shellcheck disable=SC2016 # JavaScript, not shell: its template literal is node's to expand
  want=$(node -e 'const r = JSON.parse(process.argv[1]);
    const mbps = (b, ms) => b / 1e6 / (ms / 1000);
    console.log(`aggregate ${mbps(r.writeBytes, r.writeMs)} ${mbps(r.readBytes, r.readMs)} 1 0`);' "$line")
  if [[ -n $got && $got == "$want" ]]; then
    pass "cluster-bench: bench:cluster aggregates the VM's run (${got#aggregate }: write and read MB/s, nodes, failed)"
  else
    fail "cluster-bench: bench:cluster's aggregate '${got:-none}' is not the node's own '$want'"
  fi
  if grep -qE '^write MB/s +[0-9]+ +156 +156 +[0-9.]+$' <<<"$report" && grep -qE '^read MB/s +[0-9]+ +156 +156 +[0-9.]+$' <<<"$report"; then
    pass "cluster-bench: the report puts the aggregate beside the d2.xlarge plan's estimate (156 MB/s) with the ratio"
  else
    fail "cluster-bench: the report has no aggregate row beside the estimate"
  fi
}

# Replacement of an EBS server's instance: the client holds its mount through two server VMs. The first, boot
# ebs-grow, serves while the client holds a file open for writing under a lock, then shuts down as EC2 stops
# an instance. The second, boot replace, has a new root disk, so a first boot with the loader user data and
# the apply. It gets the same volumes and the same IP and MAC, as an elastic network interface keeps both.
# Its link is cut until its bootstrap reaches the point where, on EC2, storage-attach attaches the interface:
# the harness plays that move.
grow_then_replace() {
  local t0=$SECONDS end
  log "boot: ebs-grow, then replace"
  new_root server-replace
  NET_LISTENER=client vm_start server-ebs-grow server ebs-grow server-ebs 3 "${SERVER_DISKS[@]}"
  vm_wait "$BOOT_TIMEOUT" server-ebs-grow
  collect server-ebs-grow ebs-grow server
  log "boot: the old server is off ($((SECONDS - t0)) s); the replacement boots"
  NET_LISTENER=client vm_start server-replace server replace server-replace 3 "${SERVER_DISKS[@]}"
  end=$((SECONDS + 20))
  until hmp server-replace "set_link net0 off" >/dev/null 2>&1 || ((SECONDS >= end)); do sleep 0.2; done
  if wait_console server-replace 'not attaching the data volumes and interface' 600 &&
    hmp server-replace "set_link net0 on" >/dev/null; then
    pass "replace: the host connected the server's address once its bootstrap reached the attach step"
  else
    fail "replace: the bootstrap never reached the attach step, or the link could not be set"
  fi
  detach_volume_2 server-replace
  vm_wait "$BOOT_TIMEOUT" server-replace
  collect server-replace replace server
  log "boot: ebs-grow, then replace done in $((SECONDS - t0)) s"
}

# Restore, once the instance-store, EBS and Xen servers made their arrays: disks copied from their images
# stand in for volumes restored from snapshots. A mixture of two servers' disks must be refused with every
# byte unchanged; the EBS server's two disks, restored whole, must be adopted.
restore() {
  local d
  new_root server-restore
  cp --sparse=always "$RUN_DIR/is-b.img" "$RUN_DIR/restore-11.img" && truncate -s 1G "$RUN_DIR/restore-11.img"
  cp --sparse=always "$RUN_DIR/xen-vol.img" "$RUN_DIR/restore-12.img"
  cp --sparse=always "$RUN_DIR/vol-1.img" "$RUN_DIR/restore-13.img"
  cp --sparse=always "$RUN_DIR/vol-2.img" "$RUN_DIR/restore-14.img"
  for d in restore-11 restore-12; do before[$d]=$(disk_hash "$d"); done
  SERVER_DISKS=()
  nvme_disk SERVER_DISKS restore-11 vol0e2e0000000000011
  nvme_disk SERVER_DISKS restore-12 vol0e2e0000000000012
  # The refused mixture is then swapped by the host for the EBS server's two disks, restored whole, which the
  # apply of restore-own must adopt.
  PAIR_HOOK=swap_restored boot_server restore-mixed server-restore "$BOOT_TIMEOUT"
  for d in restore-11 restore-12; do
    if [[ $(disk_hash "$d") == "${before[$d]}" ]]; then
      pass "restore: every byte of the refused disk $d is unchanged (host checksum)"
    else
      fail "restore: the refused disk $d was written"
    fi
  done
}
swap_restored() {
  hot_swap "$1" 'swap-me: waiting for the host to replace the restored disks' restore-own \
    vol0e2e0000000000011 vol0e2e0000000000012 -- restore-13:vol0e2e0000000000013 restore-14:vol0e2e0000000000014
}

only() { [[ -z ${E2E_ONLY:-} || " $E2E_ONLY " == *" $1 "* ]]; }
# The client mount script's scenario, with its own VM and moto, from test/e2e/client-mount.sh. It is sourced
# unconditionally: under set -e a missing scenario file stops the run instead of passing as "not run".
# shellcheck source-path=SCRIPTDIR source=client-mount.sh
. "$E2E_DIR/client-mount.sh"
# The ebs-xen group's boots, likewise.
# shellcheck source-path=SCRIPTDIR source=ebs-xen.sh
. "$E2E_DIR/ebs-xen.sh"

ensure_host_packages
build_image
prepare_run
# The groups to run, and the client stages they pair with, in order. The restore boot needs the disks of
# the instance-store, EBS and Xen servers.
run_is=0 run_restore=0 stages=()
if only instance-store || only foreign; then run_is=1 stages+=(fresh reboot stop-start); fi
if only foreign; then stages+=(foreign); fi
if only ebs; then stages+=(ebs ebs-grow); fi
if only ebs-xen; then stages+=(ebs-xen ebs-add copy ebs-add-grown); fi
if only instance-store && only ebs && only ebs-xen; then run_restore=1 stages+=(restore-mixed); fi
if ((${#stages[@]})); then
  # One client VM for every stage. In "fresh" it formats the disks of scenario 4, as content another machine
  # made, which the foreign server then gets; it never touches them again.
  new_root client
  CLIENT_DISKS=()
  if ((run_is)); then
    for d in prep-xfs prep-lvm prep-gpt prep-luks; do
      new_disk "$d"
      DISK_LOCKING=off virtio_disk CLIENT_DISKS "$d" "$d"
    done
  fi
  client_up "$(IFS=,; echo "${stages[*]}")"
fi
if ((run_is)); then instance_store; fi
if only foreign; then foreign; fi
if only ebs; then ebs; fi
if only ebs-xen; then ebs_xen && ebs_add; fi
if ((run_restore)); then restore; fi
if ((${#stages[@]})); then client_down; fi
# Its one VM runs the most checks, 491 s of guest time alone: half as long again as a server boot, so that a
# loaded CI machine does not time out a passing run. Run beside the servers' boots, it slowed them by more than
# it saved: fresh went from 166 to 371 s, reboot from 209 to 465 s of a 480 s bound, and a fixed-time check
# missed its window. Twice the boot limit: the stage runs about 10 minutes alone, and a loaded host pushed it
# past 720 s.
if only client-mount; then client_mount_scenario "$((BOOT_TIMEOUT * 2))"; fi
log "e2e finished in $((SECONDS - start)) s"
summary
