# Host side of the e2e VM harness, sourced by run.sh and bench-nfs.sh: host packages, the cached Debian
# test image, qemu VMs under software emulation and result bookkeeping. The image is a debootstrap root
# with the distribution's kernel. Everything lands in test/e2e/.cache, which git ignores.
# shellcheck shell=bash

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO_DIR=$(cd "$E2E_DIR/../.." && pwd)
CACHE_DIR=${E2E_CACHE_DIR:-$E2E_DIR/.cache}
IMAGE_DIR=$CACHE_DIR/image
SUITE=bookworm
# What the test root holds:
# - the server recipe's packages, as on the real server;
# - an NFS client, and fio for the benchmark;
# - the distribution kernel, whose modules must be inside the root for nfsd;
# - small tools the stages use: nc for the server/client hand-shake, sfdisk to make a foreign partition
#   table, cryptsetup for the encrypted instance-store array and the client's foreign LUKS disk;
# - python3 for client-mount.sh's record parser, and the AWS CLI it reads the records with.
# cryptsetup is also the bootstrap's own need on d2. python3-cffi-backend is named because debootstrap does
# not resolve the virtual package python3-cryptography needs from it. rsync, acl and attr: the copy of
# npm run copy (rsync on the node) and its tree's ACLs and xattrs (setfacl, setfattr), in the ebs-xen group.
IMAGE_PACKAGES=systemd-sysv,udev,kmod,iproute2,procps,nfs-kernel-server,nfs-common,lvm2,xfsprogs,fio,fdisk,cryptsetup-bin,netcat-openbsd,python3,linux-image-amd64,initramfs-tools,zstd,awscli,python3-cffi-backend,rsync,acl,attr

PASSED=0
FAILED=0

log() { printf '[e2e %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}
pass() {
  PASSED=$((PASSED + 1))
  printf 'PASS %s\n' "$*"
}
fail() {
  FAILED=$((FAILED + 1))
  printf 'FAIL %s\n' "$*"
}
summary() {
  SUMMARY_DONE=1
  printf '%s passed, %s failed\n' "$PASSED" "$FAILED"
  [[ $FAILED -eq 0 && $PASSED -gt 0 ]]
}
# stop_vm <pid>: kills a qemu this harness started, checked by its command line, as pids get reused.
stop_vm() {
  local cmdline
  cmdline=$({ tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null) || return 0
  [[ $cmdline == *qemu-system*"$RUN_DIR"* ]] && kill "$1" 2>/dev/null
  return 0
}
# On any exit: stop the VMs this run started, and if the run was cut short, count that as a failure and
# still print the closing line.
on_exit() {
  local rc=$? f
  for f in "$RUN_DIR"/*.pid; do
    [[ -f $f ]] && stop_vm "$(cat "$f")"
  done
  if [[ -z ${SUMMARY_DONE:-} ]]; then
    fail "the harness stopped early (exit $rc)"
    summary || true
    exit 1
  fi
}

# Installs the host tools the harness needs, as Debian packages, when any is missing.
ensure_host_packages() {
  local missing=() cmd
  export PATH=$PATH:/usr/sbin:/sbin
  for cmd in qemu-system-x86_64:qemu-system-x86 qemu-img:qemu-utils debootstrap:debootstrap mkfs.ext4:e2fsprogs; do
    command -v "${cmd%%:*}" >/dev/null || missing+=("${cmd#*:}")
  done
  ((${#missing[@]} == 0)) && return 0
  [[ $(id -u) -eq 0 ]] || die "missing host packages (${missing[*]}); run as root or install them"
  log "installing host packages: ${missing[*]}"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# The Debian archive this host's apt already uses, so that the image comes from the same place. Empty lets
# debootstrap use its built-in default.
debian_mirror() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r $f ]] || continue
    awk -v suite="$SUITE" 'BEGIN { RS = ""; FS = "\n" }
      $0 ~ "Suites:[^\n]*(^|[ \t])" suite "([ \t]|$)" && $0 !~ /security/ {
        for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, u, /[ \t]+/); print u[2]; exit } }' "$f"
  done | head -n 1
  if [[ -r /etc/apt/sources.list ]]; then
    awk -v suite="$SUITE" '$1 == "deb" && $3 == suite { print $2; exit }' /etc/apt/sources.list
  fi
}

# The cache key: what goes into the image. Bump IMAGE_VERSION when build_image changes what it makes.
IMAGE_VERSION=1
image_recipe_hash() {
  { echo "$IMAGE_VERSION $SUITE $IMAGE_PACKAGES"; declare -f customize_root; cat "$E2E_DIR"/image/*; } | sha256sum | cut -c1-16
}

# Runs inside the freshly bootstrapped root, by chroot, to turn it into the test image.
customize_root() {
  local root=$1
  echo e2e >"$root/etc/hostname"
  printf '# root is given on the kernel command line; the bootstrap adds the data file system here\n' >"$root/etc/fstab"
  : >"$root/etc/machine-id"
  install -D -m 0755 "$E2E_DIR/image/e2e-boot.sh" "$root/usr/local/lib/e2e/boot.sh"
  install -D -m 0644 "$E2E_DIR/image/e2e-stage.service" "$root/etc/systemd/system/e2e-stage.service"
  install -D -m 0644 "$E2E_DIR/image/70-e2e-xen-names.rules" "$root/etc/udev/rules.d/70-e2e-xen-names.rules"
  install -D -m 0755 "$E2E_DIR/image/e2e-nvme-models.sh" "$root/usr/local/lib/e2e/nvme-models.sh"
  install -D -m 0644 "$E2E_DIR/image/e2e-nvme-models.service" "$root/etc/systemd/system/e2e-nvme-models.service"
  chroot "$root" systemctl enable e2e-stage.service e2e-nvme-models.service >/dev/null 2>&1
  # A quiet serial console: only the stages and the bootstrap, by journal+console, write to it.
  chroot "$root" systemctl mask serial-getty@ttyS0.service getty@tty1.service >/dev/null 2>&1
  # A small initramfs, a quarter of Debian's "most": the root is ext4 on a virtio disk, so it needs only those.
  sed -i 's/^MODULES=.*/MODULES=list/' "$root/etc/initramfs-tools/initramfs.conf"
  printf '%s\n' virtio_pci virtio_blk ext4 >>"$root/etc/initramfs-tools/modules"
  chroot "$root" update-initramfs -u -k all >/dev/null 2>&1 || die "update-initramfs failed in the test image"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
}

# unmount_under <dir>: unmounts every mount below dir, deepest first.
unmount_under() {
  local m
  findmnt -rno TARGET | awk -v d="$1/" 'index($0, d) == 1' | sort -r | while IFS= read -r m; do
    umount "$m" || umount -l "$m" || die "cannot unmount $m"
  done
}

# Builds or reuses the cached image: root.img in ext4, vmlinuz, initrd.img.
build_image() {
  local want stamp="$IMAGE_DIR/recipe" root mirror
  want=$(image_recipe_hash)
  mkdir -p "$IMAGE_DIR"
  exec 8>"$CACHE_DIR/image.lock"
  flock 8
  if [[ -f $stamp && $(cat "$stamp") == "$want" && -f $IMAGE_DIR/root.img ]]; then
    log "test image is cached ($want)"
    flock -u 8
    return 0
  fi
  root="$CACHE_DIR/rootfs"
  unmount_under "$root"
  rm -rf "$root" "$IMAGE_DIR"/{root.img,vmlinuz,initrd.img,recipe}
  mirror=$(debian_mirror)
  log "debootstrap $SUITE (${mirror:-debootstrap default mirror}) with $IMAGE_PACKAGES"
  if ! debootstrap --variant=minbase --include="$IMAGE_PACKAGES" "$SUITE" "$root" ${mirror:+"$mirror"} \
    >"$CACHE_DIR/debootstrap.log" 2>&1; then
    tail -n 30 "$CACHE_DIR/debootstrap.log" >&2
    die "debootstrap failed (log: $CACHE_DIR/debootstrap.log)"
  fi
  # debootstrap can leave the target's /proc mounted, as seen on this host: mkfs -d would then copy /proc.
  unmount_under "$root"
  customize_root "$root"
  cp "$(find "$root/boot" -name 'vmlinuz-*' | sort -V | tail -n 1)" "$IMAGE_DIR/vmlinuz"
  cp "$(find "$root/boot" -name 'initrd.img-*' | sort -V | tail -n 1)" "$IMAGE_DIR/initrd.img"
  log "making root.img"
  mkfs.ext4 -q -F -L e2eroot -d "$root" "$IMAGE_DIR/root.img" 3G || die "making root.img failed"
  rm -rf "$root"
  echo "$want" >"$stamp"
  flock -u 8
  log "test image ready"
}

# --- one run: control disk, VMs, results ---------------------------------------------------------------

RUN_DIR=${E2E_RUN_DIR:-$CACHE_DIR/run}
SERVER_MAC=52:54:00:77:00:01
CLIENT_MAC=52:54:00:77:00:0a
TARGET_MAC=52:54:00:78:00:01
CLIENT2_MAC=52:54:00:78:00:0a

# The control disk both VMs read: the guest stages, the rendered user data, the scripts under test.
prepare_run() {
  rm -rf "$RUN_DIR"
  mkdir -p "$RUN_DIR/ctl/guest" "$RUN_DIR/ctl/userdata" "$RUN_DIR/ctl/scripts" "$RUN_DIR/logs"
  cp "$E2E_DIR"/guest/* "$RUN_DIR/ctl/guest/"
  cp "$REPO_DIR"/lib/scripts/*.sh "$RUN_DIR/ctl/scripts/"
  log "rendering user data with lib/bootstrap.ts"
  (cd "$REPO_DIR" && ts-node --transpile-only test/e2e/lib/render.ts "$RUN_DIR/ctl/userdata") ||
    die "rendering the user data failed"
  mkfs.ext4 -q -F -L e2ectl -d "$RUN_DIR/ctl" "$RUN_DIR/ctl.img" 32M >/dev/null
}

new_root() { qemu-img create -q -f qcow2 -b "$IMAGE_DIR/root.img" -F raw "$RUN_DIR/$1.qcow2"; }
new_disk() { rm -f "$RUN_DIR/$1.img" && truncate -s "${2:-512M}" "$RUN_DIR/$1.img"; }
# Disk arguments for qemu, appended to the array named by $1. Virtio disks carry a serial: the test image
# names a virtio disk with serial xvdX /dev/xvdX, as Xen does. NVMe disks carry an EBS-style serial, which
# is also the device's id for device_del.
# DISK_CACHE=none makes qemu bypass the host's page cache, for the benchmark's disks. DISK_LOCKING=off lets
# a later VM open the image while this one still has it, for the client's foreign disks, done with after
# "fresh".
virtio_disk() {
  local -n _vargs=$1
  _vargs+=(-drive "if=none,id=$3,file=$RUN_DIR/$2.img,format=raw${DISK_CACHE:+,cache=$DISK_CACHE}${DISK_LOCKING:+,file.locking=$DISK_LOCKING}"
    -device "virtio-blk-pci,drive=$3,serial=$3")
}
nvme_disk() {
  local -n _nargs=$1
  _nargs+=(-drive "if=none,id=$3,file=$RUN_DIR/$2.img,format=raw" -device "nvme,drive=$3,serial=$3,id=$3")
}
disk_hash() { sha256sum "$RUN_DIR/$1.img" | cut -d' ' -f1; }

# The machine every test VM emulates: qemu64, x86-64's baseline, which Debian targets, and not max. With
# fewer CPU features for TCG to emulate and for glibc and the kernel to pick, a VM reached its stage in 20 to
# 23 s instead of 27 to 30. One AWS CLI call took 9 to 13 s instead of 12 to 15. These are two runs of each,
# side by side on this project's 2-core CI machine.
QEMU_MACHINE=(-machine pc -accel 'tcg,thread=multi' -cpu qemu64)

# What every test VM leaves out, as boot time is CPU time under software emulation:
# - qemu's default devices: VGA and its DRM driver, floppy, CD-ROM, parallel port;
# - the modules udev would load for the emulated platform: KVM, as the emulated CPU offers virtualisation;
#   the PIIX IDE and SMBus; PC speaker and PS/2 input.
# With the small initramfs, a 2-vCPU boot to its stage took 61 s of host CPU instead of 71, and 29 s instead
# of 35.
LEAN_QEMU=(-nodefaults)
LEAN_CMDLINE="modprobe.blacklist=kvm,kvm_amd,kvm_intel,ccp,floppy,ata_piix,ata_generic,i2c_piix4,pcspkr,psmouse,serio_raw,evdev,powernow_k8"
# An NFS client starts no NFS server: the image enables one for the server role.
CLIENT_CMDLINE="systemd.mask=nfs-server.service systemd.mask=nfs-mountd.service systemd.mask=nfsdcld.service systemd.mask=nfs-blkmap.service"

# vm_start <label> <role> <stage> <root> <vcpus> [qemu args...]: boots one VM in the background. A server
# with WIRE=2 is on the second wire, 192.168.78.0/24, whose other end is the client's second NIC: the copy's
# target, up beside the server on the first.
vm_start() {
  local label=$1 role=$2 stage=$3 root=$4 smp=$5 ip mac net mem sock=net.sock nics=() extra=
  shift 5
  if [[ $role == server && ${WIRE:-1} == 2 ]]; then
    ip=192.168.78.1/24 mac=$TARGET_MAC mem=4608 sock=net2.sock
  elif [[ $role == server ]]; then
    ip=192.168.77.1/24 mac=$SERVER_MAC mem=4608
  else
    ip=192.168.77.10/24 mac=$CLIENT_MAC mem=1024 extra=" $CLIENT_CMDLINE"
  fi
  # One VM listens on the wire's socket, the other connects. The listener takes a new peer when its peer
  # goes: with NET_LISTENER=client, a replacement server connects to a client that stays up.
  if [[ $role == "${NET_LISTENER:-server}" ]]; then net=server=on; else net=server=off; fi
  nics=(-netdev "stream,id=net0,$net,addr.type=unix,addr.path=$RUN_DIR/$sock" -device "virtio-net-pci,netdev=net0,mac=$mac")
  # A listening client listens on the second wire too (its eth1, addressed by the copy's stage).
  [[ $role == client && $net == server=on ]] && nics+=(-netdev "stream,id=net1,$net,addr.type=unix,addr.path=$RUN_DIR/net2.sock"
    -device "virtio-net-pci,netdev=net1,mac=$CLIENT2_MAC")
  : >"$RUN_DIR/logs/$label.console"
  # 4.5 GiB for the server: nfsd sizes its largest block at 1/4096 of RAM, and 1 MiB needs 4 GiB+.
  qemu-system-x86_64 "${QEMU_MACHINE[@]}" -smp "$smp" -m "$mem" "${LEAN_QEMU[@]}" \
    -kernel "$IMAGE_DIR/vmlinuz" -initrd "$IMAGE_DIR/initrd.img" \
    -append "root=/dev/vda rw console=ttyS0 net.ifnames=0 loglevel=3 $LEAN_CMDLINE e2e.role=$role e2e.stage=$stage e2e.ip=$ip$extra" \
    -drive "if=none,id=root,file=$RUN_DIR/$root.qcow2,format=qcow2" -device virtio-blk-pci,drive=root \
    -drive "if=none,id=ctl,file=$RUN_DIR/ctl.img,format=raw,readonly=on" -device virtio-blk-pci,drive=ctl,serial=e2ectl \
    "${nics[@]}" \
    -display none -serial "file:$RUN_DIR/logs/$label.console" \
    -monitor "unix:$RUN_DIR/$label.monitor,server=on,wait=off" -no-reboot "$@" \
    >"$RUN_DIR/logs/$label.qemu" 2>&1 &
  echo $! >"$RUN_DIR/$label.pid"
}

# start_listener <vm_start args...>: boots the VM that listens on the wire's socket, a fresh one, and waits
# up to 20 s for the socket, so that the VM started next can connect to it.
start_listener() {
  local end=$((SECONDS + 20))
  rm -f "$RUN_DIR/net.sock" "$RUN_DIR/net2.sock"
  vm_start "$@"
  until [[ -S $RUN_DIR/net.sock ]] || ((SECONDS >= end)); do sleep 0.2; done
}

# hmp <label> <command>: one human-monitor command to a running VM, by node, which is there as npm runs us.
hmp() {
  node -e '
    const s = require("net").connect(process.argv[1]);
    let out = "";
    s.on("data", (d) => { out += d; });
    s.on("error", (e) => { console.error(e.message); process.exit(1); });
    s.on("connect", () => {
      setTimeout(() => s.write(process.argv[2] + "\n"), 300);
      setTimeout(() => { s.end(); process.stdout.write(out); process.exit(/rror|could not|failed/i.test(out) ? 1 : 0); }, 1500);
    });' "$RUN_DIR/$1.monitor" "$2"
}

# wait_console <label> <regex> <seconds>: waits for a line on a VM's serial console.
wait_console() {
  local end=$((SECONDS + $3))
  until grep -aqE "$2" "$RUN_DIR/logs/$1.console"; do
    ((SECONDS < end)) || return 1
    sleep 1
  done
}

# vm_wait <seconds> <label...>: waits for the VMs to power off; kills them and fails after the timeout.
vm_wait() {
  local limit=$1 end=$((SECONDS + $1)) label pid alive
  shift
  while :; do
    alive=0
    for label; do
      pid=$(cat "$RUN_DIR/$label.pid")
      kill -0 "$pid" 2>/dev/null && alive=1
    done
    ((alive)) || break
    if ((SECONDS >= end)); then
      for label; do
        pid=$(cat "$RUN_DIR/$label.pid")
        if kill -0 "$pid" 2>/dev/null; then
          stop_vm "$pid"
          fail "$label: the VM did not finish within $limit s (killed; console: ${RUN_DIR#"$REPO_DIR"/}/logs/$label.console)"
        fi
      done
      sleep 2
      break
    fi
    sleep 1
  done
}

# collect <label> <stage[,stage...]> <role>: counts the VM's result lines, and fails each stage that did not
# complete.
collect() {
  local label=$1 line stage
  while IFS= read -r line; do
    case $line in
      "E2E PASS "*) pass "${line#E2E PASS }" ;;
      "E2E FAIL "*) fail "${line#E2E FAIL }" ;;
    esac
  done < <(grep -aoE 'E2E (PASS|FAIL) .*' "$RUN_DIR/logs/$label.console" | tr -d '\r')
  for stage in ${2//,/ }; do
    grep -aqE "E2E STAGE-END role=$3 stage=$stage rc=0" "$RUN_DIR/logs/$label.console" && continue
    fail "$stage: the $3 stage did not run to its end (console: ${RUN_DIR#"$REPO_DIR"/}/logs/$label.console)"
    grep -aE 'E2E|storage-bootstrap|user-data' "$RUN_DIR/logs/$label.console" | tail -n 25 | sed 's/^/    | /' >&2
  done
}

# boot_pair <stage> <server root> <timeout>: boots the server with SERVER_DISKS and the client with
# CLIENT_DISKS for one stage, waits for both, and collects their results. A hook named in PAIR_HOOK runs
# on the host while they are up.
boot_pair() {
  local stage=$1 root=$2 timeout=$3 t0=$SECONDS
  log "boot: $stage"
  start_listener "server-$stage" server "$stage" "$root" "${SERVER_VCPUS:-2}" "${SERVER_DISKS[@]}"
  vm_start "client-$stage" client "$stage" client 1 "${CLIENT_DISKS[@]}"
  if [[ -n ${PAIR_HOOK:-} ]]; then "$PAIR_HOOK" "server-$stage"; fi
  vm_wait "$timeout" "server-$stage" "client-$stage"
  collect "server-$stage" "$stage" server
  collect "client-$stage" "$stage" client
  log "boot: $stage done in $((SECONDS - t0)) s"
}

# The run's one client VM, booted once by client_up. It runs the client part of every stage in turn while
# the server VMs come and go by boot_server, and listens on the wire so that each new server connects to it.
# A client boot is CPU time the servers' boots competed with, about half of a pair's time to its stage.
# client_up <stage,stage,...>: boots it with CLIENT_DISKS.
client_up() {
  CLIENT_STAGES=$1
  NET_LISTENER=client start_listener client client "$1" client 1 "${CLIENT_DISKS[@]}"
}
# boot_server <stage> <server root> <timeout>: boots the server of one stage with SERVER_DISKS against the
# running client, waits for it and collects its results. A hook named in PAIR_HOOK runs meanwhile.
boot_server() {
  local stage=$1 root=$2 timeout=$3 t0=$SECONDS
  log "boot: $stage"
  NET_LISTENER=client vm_start "server-$stage" server "$stage" "$root" "${SERVER_VCPUS:-2}" "${SERVER_DISKS[@]}"
  if [[ -n ${PAIR_HOOK:-} ]]; then "$PAIR_HOOK" "server-$stage"; fi
  vm_wait "$timeout" "server-$stage"
  collect "server-$stage" "$stage" server
  log "boot: $stage done in $((SECONDS - t0)) s"
}
# client_down: waits for the client to end its last stage and power off, and collects its results.
client_down() {
  vm_wait 300 client
  collect client "$CLIENT_STAGES" client
}
