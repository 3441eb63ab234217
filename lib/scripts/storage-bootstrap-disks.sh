# shellcheck shell=bash disable=SC2034 # LVM: read by the other parts
# storage-bootstrap, the data disks: each found by its identity, which is the EBS volume id or attachment name, or the
# instance-store model or mapping name. On EC2 the EBS volumes and the stable interface are attached to this instance.
# Then it waits until every disk is there at its size. Part of storage-bootstrap.sh, which reads it from beside itself.
# The server gets its text, less this opening comment, in place of the line that reads it: see lib/script-parts.ts.

# Prints /dev/<disk> for each NVMe disk whose sysfs attribute $1, serial or model, equals $2.
nvme_with() {
  local f v
  for f in /sys/block/nvme*/device/"$1"; do
    [[ -r $f ]] && read -r v <"$f" && [[ $v == "$2" ]] || continue
    f=${f%/device/*}
    echo "/dev/${f##*/}"
  done
}

# The disk EC2 attached under mapping name $1, /dev/sdX: /dev/xvdX on Xen, else the name itself.
by_mapping() {
  local c
  for c in "/dev/xvd${1#/dev/sd}" "$1"; do
    [[ -b $c ]] && readlink -f "$c" && return
  done
  return 1
}

# On EC2 the server attaches its own EBS data volumes and its stable network interface, with storage-attach beside this
# script. So a replacement instance takes them over from the instance it replaces, which CloudFormation deletes only
# after the update. Without instance metadata, IMDSv2, it cannot know its instance id. Then it says so, and find_disks
# waits for the volumes to be attached by someone else.
attach_own() {
  local token id region item args=() err
  [[ -n ${STORAGE_NETWORK_INTERFACE:-} || $STORAGE_BACKEND == ebs ]] || return 0
  if ! command -v curl >/dev/null || ! command -v aws >/dev/null ||
    ! token=$(curl -fsS -m 2 -X PUT -H 'X-aws-ec2-metadata-token-ttl-seconds: 300' http://169.254.169.254/latest/api/token 2>/dev/null) ||
    ! id=$(curl -fsS -m 2 -H "X-aws-ec2-metadata-token: $token" http://169.254.169.254/latest/meta-data/instance-id 2>/dev/null) ||
    ! region=$(curl -fsS -m 2 -H "X-aws-ec2-metadata-token: $token" http://169.254.169.254/latest/meta-data/placement/region 2>/dev/null); then
    log "no instance metadata (IMDSv2), curl or AWS CLI: not attaching the data volumes and interface from here"
    return 0
  fi
  # A reboot needs no EC2 API: when this instance holds everything already, nothing is attached.
  if attached_here "$token"; then
    log "the data volumes and the interface are attached to this instance already"
    return 0
  fi
  if [[ $STORAGE_BACKEND == ebs ]]; then
    for item in $STORAGE_EBS_VOLUMES; do args+=("${item%:*}"); done # <volume id>:<device>
  fi
  [[ -z ${STORAGE_NETWORK_INTERFACE:-} ]] || args+=(--interface "$STORAGE_NETWORK_INTERFACE")
  err=$(mktemp)
  if ! AWS_DEFAULT_REGION=${AWS_DEFAULT_REGION:-$region} "${BASH_SOURCE[0]%/*}/storage-attach" --instance "$id" \
    --identity "$STORAGE_IDENTITY" --wait "$STORAGE_VOLUME_WAIT_SECONDS" "${args[@]}" 2>"$err"; then
    cat "$err" >&2
    item=$(sed -n 's/^storage-attach: ERROR: //p' "$err" | tail -n 1)
    die "${item:-storage-attach failed: $(tail -n 1 "$err")}"
  fi
  rm -f "$err"
}

# volume_device <volume id>:<attachment name>:<GiB>: prints the disk of that EBS volume, found by its id, the NVMe
# serial on Nitro, or by its attachment name, /dev/sdf showing as /dev/xvdf on Xen. Fails when absent.
volume_device() {
  local id=${1%%:*} mapping=${1#*:} dev
  mapping=${mapping%%:*}
  dev=$(nvme_with serial "${id//-/}")
  if [[ -n $dev ]]; then echo "$dev"; else by_mapping "$mapping"; fi
}

# attached_here <IMDSv2 token>: succeeds when every data volume is attached to this instance, by its NVMe serial or its
# attachment name on Xen, and so is the interface, which instance metadata then lists among this instance's.
attached_here() {
  local item macs mac found=""
  if [[ $STORAGE_BACKEND == ebs ]]; then
    for item in $STORAGE_EBS_VOLUMES; do volume_device "$item" >/dev/null || return 1; done
  fi
  [[ -n ${STORAGE_NETWORK_INTERFACE:-} ]] || return 0
  macs=$(curl -fsS -m 2 -H "X-aws-ec2-metadata-token: $1" http://169.254.169.254/latest/meta-data/network/interfaces/macs/ 2>/dev/null) ||
    return 1
  for mac in $macs; do
    [[ $(curl -fsS -m 2 -H "X-aws-ec2-metadata-token: $1" \
      "http://169.254.169.254/latest/meta-data/network/interfaces/macs/${mac%/}/interface-id" 2>/dev/null) == "$STORAGE_NETWORK_INTERFACE" ]] && found=1
  done
  [[ -n $found ]]
}

# Sets DISKS, in stripe order, and LABELS, each disk with how it was identified; waits for missing ones.
find_disks() {
  local wait=$STORAGE_VOLUME_WAIT_SECONDS next_log=0 item id mapping gib dev missing nvme mapped
  local deadline=$((SECONDS + wait))
  while :; do
    DISKS=() LABELS=() missing=()
    if [[ $STORAGE_BACKEND == ebs ]]; then
      for item in ${STORAGE_EBS_VOLUMES:-}; do # <volume id>:<attachment name>:<GiB>
        id=${item%%:*} mapping=${item#*:} gib=${item##*:}
        mapping=${mapping%:*}
        if ! dev=$(volume_device "$item"); then
          missing+=("EBS volume $id (attached as $mapping)")
        elif (($(blockdev --getsize64 "$dev") < gib * 1073741824)); then
          # A volume the stack grew: EBS shows the new size once the modification is optimizing.
          missing+=("EBS volume $id to reach $gib GiB (it shows $(($(blockdev --getsize64 "$dev") / 1048576)) MiB)")
        else
          DISKS+=("$dev") LABELS+=("$dev (EBS volume $id)")
        fi
      done
    else
      # On Nitro every instance-store disk is an NVMe device of this model, and the instance has as many as its block
      # device mapping lists, the type's disk count. On Xen the mapped names are used. A model match never takes an EBS
      # volume, whose model is "Amazon Elastic Block Store". Fewer disks than the count are waited for, never used.
      nvme=$(nvme_with model 'Amazon EC2 NVMe Instance Storage')
      read -r -a mapped <<<"${STORAGE_INSTANCE_STORE_DEVICES:-}"
      if [[ -n $nvme ]] && (($(wc -w <<<"$nvme") < ${#mapped[@]})); then
        missing+=("instance-store NVMe disks: $(wc -w <<<"$nvme") of ${#mapped[@]} present")
        nvme='' mapped=()
      fi
      for item in ${nvme:-${mapped[@]}}; do
        if [[ $item == /dev/nvme* ]]; then
          DISKS+=("$item") LABELS+=("$item (NVMe instance store)")
        elif dev=$(by_mapping "$item"); then
          DISKS+=("$dev") LABELS+=("$dev (instance store $item)")
        else
          missing+=("instance-store disk $item")
        fi
      done
    fi
    ((${#DISKS[@]} + ${#missing[@]})) || die "no data disks are configured"
    ((${#missing[@]})) || break
    ((SECONDS < deadline)) || die "not attached after waiting ${wait}s: ${missing[*]}"
    if ((SECONDS >= next_log)); then
      log "waiting for ${missing[*]} (up to ${wait}s)"
      next_log=$((SECONDS + 60))
    fi
    sleep 5
    udevadm settle --timeout=10 || true
  done
  [[ $(printf '%s\n' "${DISKS[@]}" | sort -u | wc -l) -eq ${#DISKS[@]} ]] || die "disks repeat: ${LABELS[*]}"
  # Where lvm2 can, from 2.03.12, LVM sees exactly these disks, whatever its devices file or filter says.
  LVM=()
  if pvs --help 2>&1 | grep -q -- --devices; then LVM=(--devices "$(IFS=,; echo "${DISKS[*]}")"); fi
  log "data disks: ${LABELS[*]}"
}
