# shellcheck shell=bash disable=SC2034 # CREATED: read by the other parts
# storage-bootstrap, the striped array: what each disk holds, the volume group made on blank disks or ours activated,
# adopted when restored from snapshots, and the striped logical volume. Anything foreign is refused. Part of
# storage-bootstrap.sh, which reads it from beside itself. The server gets its text, less this opening comment, in place
# of the line that reads it: see lib/script-parts.ts.

# Prints "blank", "ours <VG uuid> <server identity>", or what else the disk holds. "ours" is a PV of a volume group this
# script made, on this server or on the server whose snapshots these disks were restored from.
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

# Creates the volume group and LV on blank disks, or activates ours. It refuses any foreign or mixed state: disks of two
# arrays, that is two volume groups, as when snapshots of two servers are restored together; or another server's array
# on a server that was not restored from its snapshots.
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
  elif ((${#blank[@]})) && ! added_disks "${#ours[@]}"; then
    die "${ours[*]} hold volume group $VG but ${blank[*]} are blank: refusing to rebuild part of an array" \
      "(restore the missing disks, or remove the volume group by hand to start afresh); volumes are added only" \
      "after all of the array's, blank, in a multiple of its stripe width"
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
  else
    extend_segment
  fi
  udevadm settle --timeout=30 || true
}

# added_disks <count of disks in our VG>: true, after adding them to the VG, when the blank disks are the ones after
# those of the array and a multiple of its stripe width; false, nothing written, otherwise.
added_disks() {
  local k=$1 n=${#DISKS[@]} i width
  read -r i _ < <(vgs "${LVM[@]}" --noheadings -o pv_count,vg_missing_pv_count "$VG") || return 1
  ((i == k)) || return 1
  for ((i = 0; i < k; i++)); do [[ $(classify "${DISKS[$i]}") == ours\ * ]] || return 1; done
  vgchange "${LVM[@]}" -ay "$VG" >/dev/null
  width=$(lvs "${LVM[@]}" --segments --noheadings -o stripes "$VG/$LV" 2>/dev/null | head -n 1 | tr -d ' ')
  [[ $width =~ ^[1-9][0-9]*$ && $(((n - k) % width)) == 0 ]] || return 1
  log "adding ${DISKS[*]:k} to volume group $VG, a new segment of $((n - k)) disk(s) striped $width wide"
  vgextend "${LVM[@]}" "$VG" "${DISKS[@]:k}"
}

# The disks of the VG that the LV does not use yet, those after its own, become a new segment of it striped as wide as
# its first, so the first disks keep their data and order; grow then grows XFS online. A re-run finds none.
extend_segment() {
  local d unused=() width free min=-1 m stripes=()
  for d in "${DISKS[@]}"; do
    [[ $(pvs "${LVM[@]}" --noheadings -o pv_pe_alloc_count "$d" | tr -d ' ') == 0 ]] && unused+=("$d")
  done
  m=${#unused[@]}
  ((m)) || return 0
  width=$(lvs "${LVM[@]}" --segments --noheadings -o stripes "$VG/$LV" | head -n 1 | tr -d ' ')
  [[ ${unused[*]} == "${DISKS[*]: -m}" && $((m % width)) == 0 ]] ||
    die "$m disk(s) of $VG unused by $VG/$LV (${unused[*]}): not the last ones, or not a multiple of its stripe" \
      "width $width; nothing was changed"
  for d in "${unused[@]}"; do
    free=$(pvs "${LVM[@]}" --noheadings -o pv_pe_count "$d" | tr -d ' ')
    ((min >= 0 && min <= free)) || min=$free
  done
  # A one-disk LV is linear, lvcreate's way with one disk: its added disks are too.
  ((width == 1)) || stripes=(-i "$width" -I "${STORAGE_STRIPE_KIB}k")
  log "extending $VG/$LV by a segment striped $width wide over ${unused[*]}"
  lvextend "${LVM[@]}" "${stripes[@]}" -l "+$((min * m))" "$VG/$LV" "${unused[@]}"
}

# adopt <identity of the array on the disks>: our own array stays as it is. An array made without an identity tag gets
# ours. Another server's array is adopted only when this server was restored from its snapshots, STORAGE_RESTORED, and
# it then takes this server's identity. Only LVM tags are written.
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
