# shellcheck shell=bash
# storage-bootstrap, the file system: XFS aligned to the stripe, made only on a volume this run made; its fstab line and
# mount; and its online growth when the disks grew. Part of storage-bootstrap.sh, which reads it from beside itself. The
# server gets its text, less this opening comment, in place of the line that reads it: see lib/script-parts.ts.

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

# One fstab line for the export path, by UUID with nofail, replaced when it differs; then the mount, through systemd, by
# the same mount unit a boot would start. It is ordered before nfs-server, so that at shutdown nfsd stops before the
# file system is unmounted.
ensure_mounted() {
  local dev=$FS_DEV mp=$STORAGE_EXPORT_PATH line tmp=/etc/fstab.storage-bootstrap
  line="UUID=$(blkid -p -s UUID -o value "$dev") $mp xfs defaults,$XFS_QUOTA_OPTIONS,nofail,x-systemd.before=nfs-server.service 0 0"
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

# Grows every PV, then the LV and its XFS, online, when the data disks grew, as when the stack enlarged EBS volumes. The
# LV keeps its stripes: it takes the extents free on every disk alike. Nothing is written when nothing grew, so
# re-running changes nothing.
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
