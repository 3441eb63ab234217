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

# The settings file is parsed, never sourced: only the known keys, each one KEY='value' line, every value
# validated below. Nothing in it can run as root.
SETTINGS_KEYS=" STORAGE_BACKEND STORAGE_EBS_VOLUMES STORAGE_INSTANCE_STORE_DEVICES STORAGE_EXPORT_PATH STORAGE_CLIENT_CIDRS"
SETTINGS_KEYS+=" STORAGE_NFS_THREADS STORAGE_EXPORT_MODE STORAGE_NFS_VERSIONS STORAGE_STRIPE_KIB STORAGE_VOLUME_WAIT_SECONDS"
SETTINGS_KEYS+=" STORAGE_IDENTITY STORAGE_RESTORED STORAGE_NETWORK_INTERFACE STORAGE_ENCRYPTION"
SETTINGS_KEYS+=" STORAGE_METRICS_CLUSTER STORAGE_METRICS_SERVER "
read_settings() {
  local line n=0 key
  while IFS= read -r line || [[ -n $line ]]; do
    n=$((n + 1))
    [[ -z ${line//[[:space:]]/} || $line =~ ^[[:space:]]*# ]] && continue
    [[ $line =~ ^([A-Z_]+)=\'([^\']*)\'$ ]] || die "$ENV_FILE line $n is not KEY='value'"
    key=${BASH_REMATCH[1]}
    [[ $SETTINGS_KEYS == *" $key "* ]] || die "$ENV_FILE line $n: unknown setting $key"
    printf -v "$key" '%s' "${BASH_REMATCH[2]}"
  done <"$ENV_FILE"
}

load_config() {
  local v
  [[ $(id -u) -eq 0 ]] || die "must run as root"
  [[ -r $ENV_FILE ]] || die "settings file $ENV_FILE is missing"
  read_settings
  need "${STORAGE_BACKEND:-}" '^(ebs|instance-store)$' STORAGE_BACKEND
  need "${STORAGE_EXPORT_PATH:-}" '^(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$' STORAGE_EXPORT_PATH
  [[ ! $STORAGE_EXPORT_PATH =~ /\.\.(/|$) ]] || die "STORAGE_EXPORT_PATH may not contain '..'"
  need "${STORAGE_CLIENT_CIDRS:-}" '[^[:space:]]' STORAGE_CLIENT_CIDRS # never empty: that would export to everyone
  for v in $STORAGE_CLIENT_CIDRS; do need "$v" '^[0-9a-fA-F.:]+/[0-9]+$' STORAGE_CLIENT_CIDRS; done
  for v in ${STORAGE_EBS_VOLUMES:-}; do need "$v" '^vol-[0-9a-f]+:/dev/[a-z]+:[0-9]+$' STORAGE_EBS_VOLUMES; done
  for v in ${STORAGE_INSTANCE_STORE_DEVICES:-}; do need "$v" '^/dev/[a-z]+$' STORAGE_INSTANCE_STORE_DEVICES; done
  need "${STORAGE_NFS_VERSIONS:-}" '[^[:space:]]' STORAGE_NFS_VERSIONS
  for v in $STORAGE_NFS_VERSIONS; do need "$v" '^(3|4\.[012])$' STORAGE_NFS_VERSIONS; done
  need "${STORAGE_EXPORT_MODE:-}" '^(sync|async)$' STORAGE_EXPORT_MODE
  need "${STORAGE_NFS_THREADS:-}" '^[0-9]*$' STORAGE_NFS_THREADS
  need "${STORAGE_STRIPE_KIB:-}" '^[0-9]+$' STORAGE_STRIPE_KIB
  need "${STORAGE_VOLUME_WAIT_SECONDS:-}" '^[0-9]+$' STORAGE_VOLUME_WAIT_SECONDS
  need "${STORAGE_IDENTITY:-}" '^[A-Za-z0-9_.:/=-]{1,200}$' STORAGE_IDENTITY
  need "${STORAGE_RESTORED:-}" '^(true|false)$' STORAGE_RESTORED
  need "${STORAGE_NETWORK_INTERFACE:-}" '^(eni-[0-9a-f]+)?$' STORAGE_NETWORK_INTERFACE
  # Absent from the settings of versions before encryption, whose arrays are plain.
  STORAGE_ENCRYPTION=${STORAGE_ENCRYPTION:-none}
  need "$STORAGE_ENCRYPTION" '^(none|luks2)$' STORAGE_ENCRYPTION
  [[ $STORAGE_ENCRYPTION == none || $STORAGE_BACKEND == instance-store ]] ||
    die "STORAGE_ENCRYPTION=luks2 is for instance store (EBS volumes are encrypted by EBS)"
  need "${STORAGE_METRICS_CLUSTER:-}" '^([A-Za-z0-9_.-]{1,64})?$' STORAGE_METRICS_CLUSTER
  need "${STORAGE_METRICS_SERVER:-}" '^([A-Za-z0-9_.-]{1,64})?$' STORAGE_METRICS_SERVER
  ID_TAG="storage-server-id:$STORAGE_IDENTITY"
  # NFSv4 state that outlives the instance: a replacement server (same volumes, same address) must look to
  # clients like this server rebooting, or they give up reclaiming their opens and locks (the Linux client
  # treats another server scope as another server). The scope is the identity, not the host name EC2 gives
  # each instance. nfsd takes it from the host name of whoever starts its threads (nfs_units), so at most
  # 64 bytes.
  SCOPE=$STORAGE_IDENTITY
  ((${#SCOPE} <= 64)) || SCOPE="${SCOPE:0:47}-$(printf '%s' "$SCOPE" | sha256sum | cut -c1-16)"
  # nfsd's records of the clients that hold state (nfsdcld's database), on the data file system: the kernel
  # lets only recorded clients reclaim after a restart, and a replacement's root volume is new.
  STATE_DIR=$STORAGE_EXPORT_PATH/.storage-server
  CLD_DIR=$STATE_DIR/nfsdcld
  THREADS=${STORAGE_NFS_THREADS:-}
  if [[ -z $THREADS ]]; then # as ParallelCluster does: min(256, max(8, 4 x vCPUs))
    THREADS=$((4 * $(nproc)))
    ((THREADS >= 8)) || THREADS=8
    ((THREADS <= 256)) || THREADS=256
  fi
}

# Installs the server packages only when a tool is missing (the image may carry them, offline).
ensure_packages() {
  local c tools=(lvcreate mkfs.xfs exportfs nfsconf wipefs)
  [[ $STORAGE_ENCRYPTION == none ]] || tools+=(cryptsetup)
  for c in "${tools[@]}"; do
    command -v "$c" >/dev/null && continue
    log "$c is missing: installing the NFS server, lvm2, xfsprogs and cryptsetup"
    if command -v dnf >/dev/null; then
      dnf install -y nfs-utils lvm2 xfsprogs cryptsetup
    elif command -v apt-get >/dev/null; then
      apt-get update -q &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q nfs-kernel-server lvm2 xfsprogs cryptsetup-bin
    else
      die "$c is missing and there is neither dnf nor apt-get to install it"
    fi
    return
  done
}

# Prints /dev/<disk> for each NVMe disk whose sysfs attribute $1 (serial, model) equals $2.
nvme_with() {
  local f v
  for f in /sys/block/nvme*/device/"$1"; do
    [[ -r $f ]] && read -r v <"$f" && [[ $v == "$2" ]] || continue
    f=${f%/device/*}
    echo "/dev/${f##*/}"
  done
}

# The disk EC2 attached under mapping name $1 (/dev/sdX): /dev/xvdX on Xen, else the name itself.
by_mapping() {
  local c
  for c in "/dev/xvd${1#/dev/sd}" "$1"; do
    [[ -b $c ]] && readlink -f "$c" && return
  done
  return 1
}

# On EC2 the server attaches its own EBS data volumes and its stable network interface (storage-attach, beside
# this script): a replacement instance takes them over from the instance it replaces, which CloudFormation
# deletes only after the update. Without instance metadata (IMDSv2) it cannot know its instance id: then it
# says so, and find_disks waits for the volumes to be attached by someone else.
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

# volume_device <volume id>:<attachment name>:<GiB>: prints the disk of that EBS volume, found by its id (the
# NVMe serial on Nitro) or by its attachment name (/dev/sdf showing as /dev/xvdf on Xen); fails when absent.
volume_device() {
  local id=${1%%:*} mapping=${1#*:} dev
  mapping=${mapping%%:*}
  dev=$(nvme_with serial "${id//-/}")
  if [[ -n $dev ]]; then echo "$dev"; else by_mapping "$mapping"; fi
}

# attached_here <IMDSv2 token>: succeeds when every data volume is attached to this instance (its NVMe serial,
# or its attachment name on Xen) and so is the interface (instance metadata lists it among this instance's).
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

# Sets DISKS (in stripe order) and LABELS (each disk with how it was identified); waits for missing ones.
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
      # On Nitro every instance-store disk is an NVMe device of this model, and the instance has as many as its
      # block device mapping lists (the type's disk count); on Xen, the mapped names. A model match never takes an
      # EBS volume (its model is "Amazon Elastic Block Store"), and fewer than the count is waited for, never used.
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
  # Where lvm2 can (>= 2.03.12), LVM sees exactly these disks, whatever its devices file or filter says.
  LVM=()
  if pvs --help 2>&1 | grep -q -- --devices; then LVM=(--devices "$(IFS=,; echo "${DISKS[*]}")"); fi
  log "data disks: ${LABELS[*]}"
}

# Prints "blank", "ours <VG uuid> <server identity>" (a PV of a volume group this script made, on this server
# or the server whose snapshots these disks were restored from), or what else the disk holds.
classify() {
  local dev=$1 sig="" kids="" vg uuid tags id
  if ! sig=$(wipefs --noheadings --output TYPE "$dev" 2>&1) || ! kids=$(lsblk -nro NAME "$dev" 2>&1); then
    echo "cannot be probed: ${sig//$'\n'/ } ${kids//$'\n'/ }"
  elif [[ -z $sig ]] && ! blkid -p "$dev" >/dev/null 2>&1; then
    if [[ $kids == *$'\n'* ]]; then echo "has partitions or holders"; else echo blank; fi
  elif [[ $sig == LVM2_member ]]; then
    read -r vg uuid tags < <(pvs "${LVM[@]}" --noheadings -o vg_name,vg_uuid,vg_tags "$dev" 2>/dev/null || true) || true
    if [[ ${vg:-} == "$VG" && ,${tags:-}, == *,$TAG,* ]]; then
      id=$(tr ',' '\n' <<<"$tags" | sed -n 's/^storage-server-id://p' | head -n 1)
      echo "ours ${uuid:-?} ${id:-unknown}"
    else
      echo "holds LVM (VG '${vg:-}' tags '${tags:-}')"
    fi
  else
    sig=${sig:-$(blkid -p -o export "$dev" | sed -n 's/^\(PT\)\{0,1\}TYPE=//p')}
    echo "holds ${sig//$'\n'/,}"
  fi
}

# Creates the volume group and LV on blank disks, or activates ours; refuses any foreign or mixed state:
# disks of two arrays (two volume groups, e.g. snapshots of two servers restored together), or another
# server's array on a server that was not restored from its snapshots.
assemble() {
  local i why n=${#DISKS[@]} ours=() blank=() foreign=() arrays=() uuids=() lost stripes=() uuid id
  for i in "${!DISKS[@]}"; do
    why=$(classify "${DISKS[$i]}")
    case $why in
      blank) blank+=("${LABELS[$i]}") ;;
      ours\ *)
        read -r uuid id <<<"${why#ours }"
        ours+=("${LABELS[$i]}") uuids+=("$uuid") arrays+=("${LABELS[$i]} holds array $uuid of server $id")
        ;;
      *) foreign+=("${LABELS[$i]} $why") ;;
    esac
  done
  ((${#foreign[@]} == 0)) || die "refusing data disks with content this bootstrap did not make, nothing was" \
    "written: $(printf '%s; ' "${foreign[@]}")"
  (($(printf '%s\n' "${uuids[@]}" | sort -u | wc -l) <= 1)) ||
    die "refusing disks of more than one array (snapshots of different servers or sets?), nothing was written:" \
      "$(printf '%s; ' "${arrays[@]}")"
  if ((${#ours[@]} == 0)); then
    retire_keys
    log "all $n data disks are blank: creating volume group $VG for $STORAGE_IDENTITY"
    vgcreate --addtag "$TAG" --addtag "$ID_TAG" "${LVM[@]}" "$VG" "${DISKS[@]}"
  elif ((${#blank[@]})); then
    die "${ours[*]} hold volume group $VG but ${blank[*]} are blank: refusing to rebuild part of an array" \
      "(restore the missing disks, or remove the volume group by hand to start afresh)"
  else
    read -r i lost < <(vgs "${LVM[@]}" --noheadings -o pv_count,vg_missing_pv_count "$VG")
    ((i == n && lost == 0)) || die "volume group $VG spans $i disks ($lost missing), not the $n configured"
    adopt "$id"
    vgchange "${LVM[@]}" -ay "$VG" >/dev/null
  fi
  CREATED=0
  if ! lvs "${LVM[@]}" "$VG/$LV" >/dev/null 2>&1; then
    ((n == 1)) || stripes=(-i "$n" -I "${STORAGE_STRIPE_KIB}k")
    lvcreate --yes -Wy -Zy "${LVM[@]}" -n "$LV" -l 100%FREE "${stripes[@]}" "$VG"
    CREATED=1
  fi
  udevadm settle --timeout=30 || true
}

# adopt <identity of the array on the disks>: our own array as it is; an array of the version before
# identities gets ours; another server's array only when this server was restored from its snapshots
# (STORAGE_RESTORED), and it then takes this server's identity. Only LVM tags are written.
adopt() {
  local id=$1
  [[ $id == "$STORAGE_IDENTITY" ]] && return
  if [[ $id == unknown ]]; then
    log "the array carries no server identity (made before identities): tagging it as $STORAGE_IDENTITY"
  elif [[ $STORAGE_RESTORED == true ]]; then
    log "adopting the array of $id, restored from its snapshots, as $STORAGE_IDENTITY"
    vgchange "${LVM[@]}" --deltag "storage-server-id:$id" "$VG" >/dev/null
  else
    die "the data disks hold the array of server $id, not of this server ($STORAGE_IDENTITY), and this server" \
      "was not restored from snapshots: refusing it, nothing was written"
  fi
  vgchange "${LVM[@]}" --addtag "$ID_TAG" "$VG" >/dev/null
}

# The keys of arrays that no longer exist: all the data disks are blank, so whatever a key opened is gone.
retire_keys() {
  local k
  for k in "$KEY_DIR"/*.key "$KEY_DIR"/*.key.new; do
    [[ -f $k ]] || continue
    log "removing the key $k: the array it opened is gone with its disks"
    shred -u "$k" 2>/dev/null || rm -f "$k"
  done
}

# Sets FS_DEV, the device the XFS lives on: the LV, or its open dm-crypt mapping when the LV carries LUKS.
# Encrypts only an LV this run created (STORAGE_ENCRYPTION=luks2); an existing array keeps its layout.
unlock() {
  local lv=/dev/$VG/$LV type label uuid key width offset
  FS_DEV=$lv
  type=$(blkid -p -s TYPE -o value "$lv" || true)
  if [[ -z $type ]] && ((CREATED)) && [[ $STORAGE_ENCRYPTION == luks2 ]]; then
    uuid=$(cat /proc/sys/kernel/random/uuid)
    key=$KEY_DIR/$uuid.key
    # The key is on the root volume before the header exists, so no header is ever left without its key.
    install -d -m 0700 "$KEY_DIR"
    (umask 077 && head -c 64 /dev/urandom >"$key.new") && chmod 0400 "$key.new" && mv "$key.new" "$key"
    # The data starts at a whole stripe width at or past LUKS2's 16 MiB header, so XFS's alignment holds.
    width=$((STORAGE_STRIPE_KIB * ${#DISKS[@]}))
    offset=$(((16384 + width - 1) / width * width * 2))
    log "encrypting $lv with LUKS2 (aes-xts-plain64, 512-bit key; the key is $key on the root volume)"
    # A key of 64 random bytes needs no key stretching: the fastest PBKDF LUKS2 allows.
    cryptsetup luksFormat --batch-mode --type luks2 --cipher aes-xts-plain64 --key-size 512 --sector-size 4096 \
      --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --offset "$offset" --uuid "$uuid" --label "$LUKS_LABEL" \
      --key-file "$key" "$lv"
    type=crypto_LUKS
  fi
  if [[ $type != crypto_LUKS ]]; then
    [[ $STORAGE_ENCRYPTION == none || -z $type ]] ||
      log "WARNING: this array was made unencrypted; STORAGE_ENCRYPTION=luks2 applies to the next fresh array" \
        "(to encrypt this data now: copy it to another server, then empty these disks)"
    return 0
  fi
  label=$(blkid -p -s LABEL -o value "$lv" || true)
  [[ $label == "$LUKS_LABEL" ]] ||
    die "$lv holds LUKS (label '$label') that this bootstrap did not make: not opening it, nothing was written"
  uuid=$(cryptsetup luksUUID "$lv")
  key=$KEY_DIR/$uuid.key
  [[ -f $key ]] || die "$lv is encrypted (LUKS $uuid) and its key $key is not on this server's root volume:" \
    "cannot open it, nothing was written"
  if [[ ! -e /dev/mapper/$CRYPT ]]; then
    log "opening the encrypted array (LUKS $uuid) with its key $key"
    cryptsetup open --type luks2 --key-file "$key" "$lv" "$CRYPT" ||
      die "the key $key does not open $lv (LUKS $uuid): nothing was written"
  fi
  [[ $(readlink -f "$(cryptsetup status "$CRYPT" | sed -n 's/^ *device: *//p')") == "$(readlink -f "$lv")" ]] ||
    die "/dev/mapper/$CRYPT is open on another device than $lv: not using it"
  FS_DEV=/dev/mapper/$CRYPT
}

# XFS aligned to the stripe, made only on an LV this run created; an existing LV is never formatted.
ensure_filesystem() {
  local dev=$FS_DEV type n=${#DISKS[@]}
  type=$(blkid -p -s TYPE -o value "$dev" || true)
  if [[ -z $type ]]; then
    ((CREATED)) || die "$dev holds no file system: not formatting an existing volume (check it with" \
      "xfs_repair -n, or lvremove it to start afresh)"
    log "making XFS on $dev (stripe unit ${STORAGE_STRIPE_KIB}k, width $n)"
    if ((n > 1)); then mkfs.xfs -q -K -d "su=${STORAGE_STRIPE_KIB}k,sw=$n" "$dev"; else mkfs.xfs -q -K "$dev"; fi
  elif [[ $type != xfs ]]; then
    die "$dev holds $type, not xfs: not touching it"
  fi
}

# One fstab line for the export path, by UUID with nofail (replaced when it differs); then mounted through
# systemd (the same mount unit a boot would start). Ordered before nfs-server, so that at shutdown nfsd
# stops before the file system is unmounted.
ensure_mounted() {
  local dev=$FS_DEV mp=$STORAGE_EXPORT_PATH line tmp=/etc/fstab.storage-bootstrap
  line="UUID=$(blkid -p -s UUID -o value "$dev") $mp xfs defaults,nofail,x-systemd.before=nfs-server.service 0 0"
  if [[ $(awk -v mp="$mp" '$1 !~ /^#/ && $2 == mp' /etc/fstab) != "$line" ]]; then
    log "fstab: $line"
    { awk -v mp="$mp" '$1 ~ /^#/ || $2 != mp' /etc/fstab && echo "$line"; } >"$tmp"
    cat "$tmp" >/etc/fstab && rm -f "$tmp"
    systemctl daemon-reload
  fi
  mkdir -p "$mp"
  mountpoint -q "$mp" || systemctl start "$(systemd-escape -p --suffix=mount "$mp")" || die "cannot mount $dev on $mp"
  [[ $(mountpoint -d "$mp") == "$(lsblk -ndro MAJ:MIN "$dev")" ]] || die "$mp has another file system mounted"
}

# Grows every PV, then the LV and its XFS, online, when the data disks grew (EBS volumes the stack
# enlarged). The LV keeps its stripes: it takes the extents free on every disk alike. Nothing is written
# when nothing grew, so re-running changes nothing.
grow() {
  local d dev_size pe_start pv_size extent free min=-1 n=${#DISKS[@]} lv_bytes bsize blocks grew=0
  for d in "${DISKS[@]}"; do
    read -r dev_size pe_start pv_size extent < <(pvs "${LVM[@]}" --noheadings --nosuffix --units b \
      -o dev_size,pe_start,pv_size,vg_extent_size "$d")
    if ((dev_size - pe_start - pv_size >= extent)); then
      log "growing physical volume $d to $((dev_size / 1048576)) MiB"
      pvresize "${LVM[@]}" "$d"
    fi
    free=$(pvs "${LVM[@]}" --noheadings -o pv_pe_count,pv_pe_alloc_count "$d" | awk '{ print $1 - $2 }')
    ((min >= 0 && min <= free)) || min=$free
  done
  if ((min > 0)); then
    log "extending $VG/$LV by $min extents on each of the $n disks"
    lvextend "${LVM[@]}" -l "+$((min * n))" "$VG/$LV"
    grew=1
  fi
  lv_bytes=$(lvs "${LVM[@]}" --noheadings --nosuffix --units b -o lv_size "$VG/$LV" | tr -d ' ')
  read -r bsize blocks < <(xfs_info "$STORAGE_EXPORT_PATH" |
    sed -n 's/^data *= *bsize=\([0-9]*\) *blocks=\([0-9]*\),.*/\1 \2/p')
  if ((grew || lv_bytes - bsize * blocks > 67108864)); then
    log "growing XFS on $STORAGE_EXPORT_PATH to fill $VG/$LV ($((lv_bytes / 1048576)) MiB)"
    xfs_growfs "$STORAGE_EXPORT_PATH" >/dev/null
  fi
}

# The directory at the top of the data file system that holds the NFS server's own state (.storage-server,
# root's only). Clients see its name and nothing in it (0700, root squashed). Anything there this script did
# not make is refused: a link could lead root's chmod elsewhere.
state_dirs() {
  local d
  for d in "$STATE_DIR" "$CLD_DIR"; do
    [[ -e $d || -L $d ]] || mkdir -m 0700 "$d"
    [[ -d $d && ! -L $d && $(stat -c %u "$d") == 0 ]] ||
      die "$d is not a directory of root's (a link, a file, or another owner's): refusing to keep NFS state there"
    chmod 0700 "$d"
  done
}

# The cluster benchmark's scratch directory at the top of the data file system (lib/scripts/cluster-bench.sh): root's,
# 1777 like /tmp, because the nodes run the benchmark as root, which the export squashes to nobody. Each run
# removes its own files. Anything else of that name (a link, a file, someone's directory) is left alone, with a
# warning: the export matters more than the benchmark, which then refuses to run.
bench_dir() {
  local d=$STORAGE_EXPORT_PATH/.storage-bench
  [[ -e $d || -L $d ]] || mkdir -m 1777 "$d"
  if [[ -d $d && ! -L $d && $(stat -c %u "$d") == 0 ]]; then
    chmod 1777 "$d"
  else
    log "WARNING: $d is not a directory of root's (a link, a file, or another owner's): the cluster benchmark has no scratch"
  fi
}

# in_scope <command...>: runs the command with the host name set to the server scope, in a UTS namespace of
# its own (the kernel copies the host name into nfsd's scope whenever nfsd's threads are set).
in_scope() { unshare --uts /bin/sh -c "echo \"\$0\" >/proc/sys/kernel/hostname && exec \"\$@\"" "$SCOPE" "$@"; }

# systemd drop-ins: nfs-server starts nfsd in the server scope (as the ClusterLabs nfsserver agent does for
# failover pairs), and nfsdcld starts only once the data file system is mounted, so that it never makes its
# database on the root volume underneath the mount point. Read at the next start of each unit.
nfs_units() {
  local unit text changed=0
  unit=/etc/systemd/system/nfs-server.service.d/storage-server.conf
  text="# Managed by storage-bootstrap: nfsd's NFSv4 server scope is the server's identity, not the host name."
  text+=$'\n'"[Service]"$'\n'"ExecStart="$'\n'"ExecStart=$(command -v unshare) --uts /bin/sh -c"
  text+=" 'echo \"\$\$0\" >/proc/sys/kernel/hostname && exec $(command -v rpc.nfsd)' '$SCOPE'"
  if [[ $(cat "$unit" 2>/dev/null) != "$text" ]]; then
    mkdir -p "${unit%/*}" && printf '%s\n' "$text" >"$unit"
    log "nfs-server starts nfsd in NFSv4 server scope $SCOPE"
    changed=1
  fi
  unit=/etc/systemd/system/nfsdcld.service.d/storage-server.conf
  text="# Managed by storage-bootstrap: nfsdcld keeps its records on the data file system."$'\n'"[Unit]"$'\n'
  text+="RequiresMountsFor=$CLD_DIR"
  if [[ $(cat "$unit" 2>/dev/null) != "$text" ]]; then
    mkdir -p "${unit%/*}" && printf '%s\n' "$text" >"$unit"
    changed=1
  fi
  ((changed == 0)) || systemctl daemon-reload
  systemctl cat nfsdcld.service >/dev/null 2>&1 ||
    log "WARNING: nfsdcld is not installed: a replacement server cannot let clients reclaim their locks"
}

# A new instance's nfs-server (started by its package or image) serves nothing of ours yet, in the scope of
# its host name: stopped before this server's address and volumes arrive, so that no client of the server
# it replaces meets it. configure_nfs starts it in the server's scope.
quiet_nfs() {
  mountpoint -q "$STORAGE_EXPORT_PATH" && return 0
  systemctl is-active -q nfs-server.service || return 0
  log "stopping nfs-server until it serves the data file system in scope $SCOPE"
  systemctl stop nfs-server.service
}

# nfs.conf [nfsd] threads and versions, and the exports file, applied live: new exports by exportfs -ra, a
# new thread count through /proc/fs/nfsd/threads. Only a change of NFS versions restarts nfs-server (the
# kernel takes versions only while nfsd is stopped; clients' hard mounts wait through the grace period).
configure_nfs() {
  local restart=0 threads=0 cld=0 v on cidr clients="" text
  for v in threads vers3 vers4 vers4.0 vers4.1 vers4.2; do
    case $v in
      threads) on=$THREADS ;;
      vers4) [[ " $STORAGE_NFS_VERSIONS" == *" 4."* ]] && on=y || on=n ;;
      *) [[ " $STORAGE_NFS_VERSIONS " == *" ${v#vers} "* ]] && on=y || on=n ;;
    esac
    [[ $(nfsconf --get nfsd "$v" 2>/dev/null || true) == "$on" ]] && continue
    nfsconf --set nfsd "$v" "$on"
    if [[ $v == threads ]]; then threads=1; else restart=1; fi
  done
  # The server scope and where nfsdcld keeps its client records: both are read when nfsd and nfsdcld start
  # (at boot, on a replacement, or on a restart below). A serving nfs-server is never restarted for them
  # alone: its clients would take the new scope for another server and give up their locks.
  state_dirs
  bench_dir
  nfs_units
  if [[ $(nfsconf --get nfsdcld storagedir 2>/dev/null || true) != "$CLD_DIR" ]]; then
    v=$(nfsconf --get nfsdcld storagedir 2>/dev/null || echo /var/lib/nfs/nfsdcld)
    # The records so far go along (the database is copied only where there is none yet).
    [[ -e $CLD_DIR/main.sqlite || ! -f $v/main.sqlite ]] || cp -p "$v/main.sqlite" "$CLD_DIR/main.sqlite"
    nfsconf --set nfsdcld storagedir "$CLD_DIR"
    log "nfsdcld keeps its client records in $CLD_DIR (from its next start)"
    cld=1
  fi
  # mp: exported only while the file system is mounted there, never the bare directory underneath.
  for cidr in $STORAGE_CLIENT_CIDRS; do clients+=" $cidr(rw,$STORAGE_EXPORT_MODE,no_subtree_check,root_squash,sec=sys,mp)"; done
  text="# Managed by storage-bootstrap ($ENV_FILE); rewritten at every boot."$'\n'"$STORAGE_EXPORT_PATH$clients"
  if [[ $(cat "$EXPORTS_FILE" 2>/dev/null) != "$text" ]]; then
    mkdir -p "${EXPORTS_FILE%/*}" && printf '%s\n' "$text" >"$EXPORTS_FILE"
    log "exports: $STORAGE_EXPORT_PATH$clients"
  fi
  systemctl is-enabled -q nfs-server.service || systemctl enable -q nfs-server.service
  if ((restart)) || ! systemctl is-active -q nfs-server.service; then
    log "starting nfs-server ($THREADS threads, NFS $STORAGE_NFS_VERSIONS, scope $SCOPE)"
    systemctl stop nfs-server.service
    # nfsdcld outlives nfs-server: restarted here so that it opens its records where they now live.
    ((cld == 0)) || systemctl try-restart nfsdcld.service || true
    systemctl start nfs-server.service
    return
  fi
  if ((threads)) || [[ $(cat /proc/fs/nfsd/threads 2>/dev/null) != "$THREADS" ]]; then
    log "nfsd threads: $THREADS (live)"
    in_scope sh -c "echo \"\$1\" >/proc/fs/nfsd/threads" threads "$THREADS"
  fi
  exportfs -ra
}

# Success only when the export is live for every client CIDR and nfsd runs the threads asked for.
verify() {
  local live cidr
  live=$(exportfs -s | awk -v p="$STORAGE_EXPORT_PATH" '$1 == p { $1 = ""; print }')
  for cidr in $STORAGE_CLIENT_CIDRS; do
    [[ $live == *" $cidr("* ]] || die "$STORAGE_EXPORT_PATH is not exported to $cidr (exportfs -s: ${live:-nothing})"
  done
  [[ $(cat /proc/fs/nfsd/threads 2>/dev/null) == "$THREADS" ]] || die "nfsd does not run $THREADS threads"
  log "export live: $STORAGE_EXPORT_PATH to $STORAGE_CLIENT_CIDRS ($STORAGE_EXPORT_MODE, NFS $STORAGE_NFS_VERSIONS," \
    "$THREADS nfsd threads, ${#DISKS[@]} disks)"
}

# The server's own metrics (lib/server-metrics.ts), when the settings name the cluster and server: storage-metrics
# every minute (heartbeat, file system, nfsd counters to the CloudWatch agent's StatsD listener), and the agent
# with its configuration from the settings document. Never fails the run: the export matters more than its
# metrics, and a server that sends no heartbeat is what the export-down alarm reports.
metrics() {
  local unit=/etc/systemd/system/storage-metrics text changed=0 ctl=/opt/aws/amazon-cloudwatch-agent/bin/amazon-cloudwatch-agent-ctl
  local config=/etc/storage-server/cloudwatch-agent.json applied=/var/lib/storage-server/cloudwatch-agent.sha256
  if [[ -z ${STORAGE_METRICS_CLUSTER:-} ]]; then
    if systemctl is-enabled -q storage-metrics.timer 2>/dev/null; then systemctl disable -q --now storage-metrics.timer || true; fi
    return 0
  fi
  text="[Unit]"$'\n'"Description=StorageServer metrics: heartbeat, file system, nfsd counters to the CloudWatch agent"$'\n'
  text+="[Service]"$'\n'"Type=oneshot"$'\n'"ExecStart=/usr/local/sbin/storage-metrics --cluster $STORAGE_METRICS_CLUSTER"
  text+=" --server $STORAGE_METRICS_SERVER --export $STORAGE_EXPORT_PATH"
  if [[ $(cat "$unit.service" 2>/dev/null) != "$text" ]]; then printf '%s\n' "$text" >"$unit.service" && changed=1; fi
  text="[Unit]"$'\n'"Description=StorageServer metrics every minute"$'\n'"[Timer]"$'\n'"OnActiveSec=10s"$'\n'
  text+="OnUnitActiveSec=60s"$'\n'"AccuracySec=5s"$'\n'"[Install]"$'\n'"WantedBy=timers.target"
  if [[ $(cat "$unit.timer" 2>/dev/null) != "$text" ]]; then printf '%s\n' "$text" >"$unit.timer" && changed=1; fi
  ((changed == 0)) || systemctl daemon-reload
  systemctl is-active -q storage-metrics.timer || systemctl enable -q --now storage-metrics.timer ||
    log "WARNING: cannot start storage-metrics.timer: no heartbeat is sent"
  if [[ ! -x $ctl ]] && command -v dnf >/dev/null; then
    log "installing the CloudWatch agent"
    dnf install -y amazon-cloudwatch-agent || true
  fi
  if [[ ! -x $ctl ]]; then
    log "WARNING: no CloudWatch agent on this server (amazon-cloudwatch-agent): its metrics are not published"
  elif [[ ! -r $config ]]; then
    log "WARNING: $config is missing: the CloudWatch agent is not configured"
  elif [[ $(sha256sum <"$config") != "$(cat "$applied" 2>/dev/null)" ]] || ! systemctl is-active -q amazon-cloudwatch-agent; then
    log "configuring the CloudWatch agent from $config"
    if "$ctl" -a fetch-config -m ec2 -c "file:$config" -s; then
      mkdir -p "${applied%/*}" && sha256sum <"$config" >"$applied"
    else
      log "WARNING: the CloudWatch agent did not take $config: its metrics are not published"
    fi
  fi
}

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
