#!/bin/bash
# Test image only. qemu cannot set an NVMe controller's model number, yet that is how the storage bootstrap
# tells EC2's NVMe instance store from an EBS volume on Nitro instances. The models are "Amazon EC2 NVMe
# Instance Storage" and "Amazon Elastic Block Store". Before the bootstrap runs, this presents the model EC2
# gives each kind, chosen by the serial the harness gave the disk:
# - AWS... for instance store, as EC2's instance-store serials start with AWS;
# - vol... for EBS, as EC2 puts the volume id there.
# It bind-mounts a file over the very sysfs attribute the bootstrap reads, /sys/block/nvme*/device/model.
# Nothing else changes: the disks, their serials and udev's names stay what qemu made them.
# It waits at most 60 s for every NVMe PCI function, class 0x010802, to show its disk. The kernel adds the
# disk once it has identified the controller; before that the serial reads empty. So it needs no udev
# settle. Run again after a hot-add, it presents the new disks and leaves the others alone.
set -u
mkdir -p /run/e2e-nvme
end=$((SECONDS + 60))
for fn in /sys/bus/pci/devices/*; do
  [[ $(cat "$fn/class" 2>/dev/null) == 0x010802 ]] || continue
  until compgen -G "$fn/nvme/nvme*/nvme*n[0-9]*" >/dev/null || ((SECONDS >= end)); do sleep 0.2; done
  compgen -G "$fn/nvme/nvme*/nvme*n[0-9]*" >/dev/null || echo "e2e-nvme-models: no NVMe disk on ${fn##*/} after 60 s"
done
for ctrl in /sys/class/nvme/nvme*; do
  ctrl=$(readlink -f "$ctrl")
  [[ -r $ctrl/serial && -e $ctrl/model ]] || continue
  mountpoint -q "$ctrl/model" && continue
  read -r serial <"$ctrl/serial"
  case $serial in
    AWS*) model='Amazon EC2 NVMe Instance Storage' ;;
    vol*) model='Amazon Elastic Block Store' ;;
    *) continue ;;
  esac
  file=/run/e2e-nvme/${ctrl##*/}.model
  echo "$model" >"$file"
  mount --bind "$file" "$ctrl/model" && echo "e2e-nvme-models: ${ctrl##*/} ($serial) presents model \"$model\""
done
exit 0
