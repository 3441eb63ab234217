#!/usr/bin/env bash
# e2e scenario "client-mount": lib/scripts/client-mount.sh on a cluster node, in a VM booted from the
# harness's test image, reading its mount configs from a moto server on this host.
#
#   - moto listens on a free loopback port. The VM reaches it as 10.0.2.100:5000 through qemu's user
#     network with restrict=on, its only way out, and a per-connection forward to the loopback port.
#   - The script reads the configs with the VM's AWS CLI, Debian's awscli package 2.9. It ignores
#     AWS_ENDPOINT_URL, so the call reaches moto only through the script's --endpoint-url.
#   - The guest stage, guest/client-mount-stage.sh, mounts, re-runs, adds a second server, deletes one
#     config and corrupts another. It forges records beside a good one, and checks fstab, the mounts and
#     the report after each run. The forged records hold /etc/cron.d, suid, a server outside
#     --allowed-servers, shell metacharacters, a symbolic link, mount points outside the mount roots such
#     as /opt/aws, /snap, /nix and /mnt, deeply nested JSON, and a link an unprivileged user planted, and
#     keeps swapping, in a directory every user writes.
#   - Readiness and removal: storage-server-mounts.target is started only once every record is mounted, and a
#     unit wanted by it and ordered after it runs only then; a record whose server does not answer leaves it
#     unreached and the status 2 within the bound; a tombstoned record's mount (busy: lazily) and fstab line go.
#     An existing NFS server registered by address (backend nfs) is mounted like the others.
#   - FSx for OpenZFS: the mount config the registration writes for backend fsx-openzfs, rendered here by
#     the contract's own mountRecord. Its server is the file system's DNS name. In the VM /etc/hosts stands
#     in for the VPC's resolver, giving the name a loopback export /fsx. OpenZFS records naming an IP,
#     another name, or an FSx name outside --allowed-servers are refused.
#
# Run alone: bash test/e2e/client-mount.sh, which prints "N passed, M failed". Or source it after
# lib/host.sh, as run.sh does, and call client_mount_scenario: results go to the same PASS/FAIL counters.
# Needs python3 and awscli in the test image, by IMAGE_PACKAGES in lib/host.sh.

# client_mount_scenario [timeout seconds]
client_mount_scenario() {
  # Under the run's own directory, E2E_RUN_DIR, so that two runs at once never share the VM's disks.
  local timeout=${1:-${E2E_BOOT_TIMEOUT:-480}} dir="$RUN_DIR/client-mount" venv port moto_pid qemu_pid end line
  log "boot: client-mount"
  rm -rf "$dir" && mkdir -p "$dir/ctl/guest" "$dir/ctl/scripts"
  cp "$E2E_DIR/guest/client-mount-stage.sh" "$dir/ctl/guest/stage.sh"
  cp "$E2E_DIR/guest/client-mount-stage-records.sh" "$dir/ctl/guest/"
  # The client mount script as the SSM document carries it (its parts in place, no comments), and the
  # user data mountStorageOn adds to a CDK consumer's node, both rendered by the construct's own code.
  (cd "$REPO_DIR" && ts-node --transpile-only -e '
    const ec2 = require("aws-cdk-lib/aws-ec2");
    const { loadClientMountScript, renderMountUserData } = require("./lib/client-mount");
    const { documentScript } = require("./lib/client-mount/document");
    const { mountRecord } = require("./lambda/register/contract");
    require("fs").writeFileSync(process.argv[3], documentScript(loadClientMountScript()));
    // The mount config the registration writes for an FSx for OpenZFS file system (backend fsx-openzfs).
    require("fs").writeFileSync(process.argv[4], JSON.stringify(mountRecord("fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com", "/fsx",
      "/shared/zfs", "nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,nconnect=16,_netdev", "nfs4", "fsx-openzfs")));
    // The mount config the registration writes for ExistingStorageSource.nfs(address, exportPath) (backend nfs).
    require("fs").writeFileSync(process.argv[5], JSON.stringify(mountRecord("127.0.0.8", "/export/h", "/data/h",
      "nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev", "nfs4", "nfs")));
    const userData = ec2.UserData.forLinux();
    userData.addCommands(...renderMountUserData({ server: "127.0.0.3", exportPath: "/export/c", mountPoint: "/shared/c",
      options: "nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev", tag: "vmcluster/direct", attempts: 3 }));
    require("fs").writeFileSync(process.argv[1], userData.render());
    // The same with nconnect, as a server with the default options hands it on: run where the kernel refuses it.
    const withNconnect = ec2.UserData.forLinux();
    withNconnect.addCommands(...renderMountUserData({ server: "127.0.0.7", exportPath: "/export/g", mountPoint: "/shared/g",
      options: "nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,nconnect=16,_netdev", tag: "vmcluster/direct-nc", attempts: 3 }));
    require("fs").writeFileSync(process.argv[2], withNconnect.render());' \
    "$dir/ctl/scripts/mount-on-user-data.sh" "$dir/ctl/scripts/mount-on-user-data-nconnect.sh" "$dir/ctl/scripts/client-mount.sh" \
    "$dir/ctl/scripts/openzfs-record.json" "$dir/ctl/scripts/nfs-record.json") || {
    fail "client-mount: rendering the client mount script, the mountStorageOn user data or the OpenZFS record failed"
    return 0
  }
  mkfs.ext4 -q -F -L e2ectl -d "$dir/ctl" "$dir/ctl.img" 8M >/dev/null
  qemu-img create -q -f qcow2 -b "$IMAGE_DIR/root.img" -F raw "$dir/root.qcow2"

  venv=$(bash "$REPO_DIR/test/support/venv.sh") || {
    fail "client-mount: the test venv (moto) could not be made"
    return 0
  }
  "$venv/moto_server" -H 127.0.0.1 -p 0 >"$dir/moto.log" 2>&1 &
  moto_pid=$!
  end=$((SECONDS + 60))
  until port=$(grep -aoE 'Running on http://127\.0\.0\.1:[0-9]+' "$dir/moto.log" | grep -oE '[0-9]+$'); do
    if ((SECONDS >= end)) || ! kill -0 "$moto_pid" 2>/dev/null; then
      fail "client-mount: moto did not start (log: $dir/moto.log)"
      kill "$moto_pid" 2>/dev/null || true
      return 0
    fi
    sleep 0.5
  done

  # Shared hold on the image: a concurrent build_image waits until this VM is done with root.img.
  exec 7<>"$CACHE_DIR/image.lock"
  flock -s 7
  : >"$dir/console"
  qemu-system-x86_64 "${QEMU_MACHINE[@]}" -smp 2 -m 1024 "${LEAN_QEMU[@]}" \
    -kernel "$IMAGE_DIR/vmlinuz" -initrd "$IMAGE_DIR/initrd.img" \
    -append "root=/dev/vda rw console=ttyS0 net.ifnames=0 loglevel=3 $LEAN_CMDLINE e2e.role=client-mount e2e.stage=ssm e2e.ip=10.0.2.15/24" \
    -drive "if=none,id=root,file=$dir/root.qcow2,format=qcow2" -device virtio-blk-pci,drive=root \
    -drive "if=none,id=ctl,file=$dir/ctl.img,format=raw,readonly=on" -device virtio-blk-pci,drive=ctl,serial=e2ectl \
    -netdev "user,id=net0,restrict=on,guestfwd=tcp:10.0.2.100:5000-cmd:bash -c 'exec 3<>/dev/tcp/127.0.0.1/$port; cat <&3 & cat >&3; wait'" \
    -device virtio-net-pci,netdev=net0 \
    -display none -serial "file:$dir/console" -no-reboot >"$dir/qemu.log" 2>&1 &
  qemu_pid=$!
  echo "$qemu_pid" >"$RUN_DIR/client-mount-vm.pid" # the harness's exit stops it, by on_exit
  end=$((SECONDS + timeout))
  while kill -0 "$qemu_pid" 2>/dev/null; do
    if ((SECONDS >= end)); then
      kill "$qemu_pid" 2>/dev/null || true
      fail "client-mount: the VM did not finish within $timeout s (console: $dir/console)"
      break
    fi
    sleep 1
  done
  wait "$qemu_pid" 2>/dev/null || true
  flock -u 7
  kill "$moto_pid" 2>/dev/null || true
  wait "$moto_pid" 2>/dev/null || true

  while IFS= read -r line; do
    case $line in
      "E2E PASS "*) pass "${line#E2E PASS }" ;;
      "E2E FAIL "*) fail "${line#E2E FAIL }" ;;
    esac
  done < <(grep -aoE 'E2E (PASS|FAIL) .*' "$dir/console" | tr -d '\r')
  if ! grep -aqE 'E2E STAGE-END role=client-mount stage=ssm rc=0' "$dir/console"; then
    fail "client-mount: the stage did not run to its end (console: $dir/console)"
    grep -aE 'E2E|client-mount' "$dir/console" | tail -n 25 | sed 's/^/    | /' >&2
  fi
  log "boot: client-mount done"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  # shellcheck source-path=SCRIPTDIR source=lib/host.sh
  . "$(dirname "${BASH_SOURCE[0]}")/lib/host.sh"
  ensure_host_packages
  build_image
  client_mount_scenario
  summary
fi
