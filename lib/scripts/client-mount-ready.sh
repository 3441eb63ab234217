# client-mount.sh's node readiness (storage-server-mounts.target) and the removal of tombstoned servers.
# Part of client-mount.sh, which reads it from beside itself. The SSM document carries its text, less this opening
# comment, in place of the line that reads it: see lib/script-parts.ts.
# shellcheck shell=bash disable=SC2034,SC2154 # client-mount.sh's globals: checked whole, with the script

# Whether this node runs systemd (sd_booted(3): the directory exists only then); without it, no target.
have_systemd() { [[ -d $SYSTEMD_RUN ]] && command -v systemctl >/dev/null; }

# The source of the mount on $1 as the mount table shows it (the field after the fstype, past the " - "), or "".
mounted_source() {
  awk -v mp="$1" '$5 == mp { s = ""; for (i = 7; i < NF; i++) if ($i == "-") { s = $(i + 2); break } } END { print s }' \
    "$MOUNTINFO" 2>/dev/null || true
}

# One mount try; on a first run bounded by what is left of the wait, so that a server that does not answer cannot
# hold the run past it (mount.nfs alone retries for 2 minutes).
try_mount() {
  if ((first)); then
    local left=$((deadline - SECONDS))
    ((left >= 30)) || left=30
    timeout -k 10 "$left" mount -T "$fstab" -- "$1"
  else
    mount -T "$fstab" -- "$1"
  fi
}

# Prints <server>TAB<removedAt> for each of the servers $@ whose tombstone <prefix>/<cluster>/removed/<server> is
# there and is that server's (lambda/register/records.ts, isTombstoneOf); GetParameters takes at most 10 names a call
# (docs/sources/ssm-timeout.md).
tombstoned() {
  local names=() out endpoint=${AWS_ENDPOINT_URL_SSM:-${AWS_ENDPOINT_URL:-}} s
  for s; do names+=("$prefix/$cluster/removed/$s"); done
  while ((${#names[@]})); do
    local args=(ssm get-parameters --output json --region "$region" --names "${names[@]:0:10}")
    [[ -z $endpoint ]] || args+=(--endpoint-url "$endpoint")
    names=("${names[@]:10}")
    out=$(AWS_PAGER='' aws "${args[@]}") || {
      warn "TOMBSTONES-UNREADABLE cannot read $prefix/$cluster/removed/ (see above; the node's role needs ssm:GetParameters there); vanished configs are kept"
      return 0
    }
    python3 -c "$PY_REMOVED" "$prefix/$cluster/removed/" <<<"$out" || true
  done
}

# Unmounts the tombstoned server $1's mount of fstab line $2 and says so; returns 1 (after reporting) when the mount
# stays, so that its line stays too. A mount of something else on the mount point is not this script's: left.
unmount_removed() {
  local srv=$1 mp src cur pids
  mp=$(fstab_target "$2") src=$(fstab_source "$2")
  cur=$(mounted_source "$mp")
  if ((dry_run)); then say "dry run: would unmount $mp and drop its fstab line"; return 0; fi
  if ((!do_mount)); then say "--no-mount: $mp and its fstab line left for a run that mounts"; return 1; fi
  if [[ -z $cur ]]; then
    say "removed $cluster/$srv: $mp was not mounted"
  elif [[ $cur != "$src" ]] && ! same_lustre "$cur" "$src"; then
    say "removed $cluster/$srv: $mp holds $cur, not $src; that mount is not this script's and stays"
  elif umount -- "$mp"; then
    say "removed $cluster/$srv: unmounted $mp"
  else
    if command -v fuser >/dev/null; then
      pids=$(fuser -m "$mp" 2>/dev/null | xargs) || true
      pids="in use by ${pids:-processes fuser did not name}"
    else
      pids='in use (no fuser, from psmisc, to name the processes)'
    fi
    if ! umount -l -- "$mp"; then
      warn "UMOUNT-FAILED $mp of removed $cluster/$srv, $pids; its fstab line stays"
      return 1
    fi
    say "lazily unmounted $mp: $pids"
  fi
  say "fstab line of removed $cluster/$srv dropped: $2"
}

# The tagged lines whose config is gone (their servers not in $@): each is unmounted and dropped when its tombstone
# says the server was removed (docs/design.md, section 9), else reported and left, since a config vanishes briefly
# while a server is replaced.
report_stale() {
  local known=" $* " l srv i stale=() gone
  for l in "${lines[@]}"; do
    [[ $l == *" $TAG_PREFIX$cluster/"* ]] || continue
    srv=${l##*" $TAG_PREFIX$cluster/"}
    [[ -z $server || $srv == "$server" ]] || continue
    [[ $known == *" $srv "* ]] || stale+=("$srv")
  done
  ((${#stale[@]})) || return 0
  gone=$'\n'$(tombstoned "${stale[@]}")$'\n'
  for i in "${!lines[@]}"; do
    l=${lines[i]}
    [[ $l == *" $TAG_PREFIX$cluster/"* ]] || continue
    srv=${l##*" $TAG_PREFIX$cluster/"}
    [[ " ${stale[*]} " == *" $srv "* ]] || continue
    if [[ $gone == *$'\n'"$srv"$'\t'* ]]; then
      l=${gone#*$'\n'"$srv"$'\t'}
      say "$cluster/$srv was removed (its tombstone $prefix/$cluster/removed/$srv, ${l%%$'\n'*})"
      ! unmount_removed "$srv" "${lines[i]}" || unset 'lines[i]'
    else
      warn "STALE $cluster/$srv: its mount config $(records_path)$srv/mount is gone; left in fstab and mounted as it is (no tombstone says it was removed): '${lines[i]}'. Unmount it and delete the line by hand when it is no longer used."
    fi
  done
}

# Writes EXPECTED_DIR/<cluster>, one "<server> <mount point>" a line ("-" for a record that cannot be mounted),
# from the `expect` array; with --server only that server's line changes.
write_expected() {
  local file=$EXPECTED_DIR/$cluster old=()
  [[ -d $EXPECTED_DIR ]] || mkdir -p "$EXPECTED_DIR"
  [[ -z $server || ! -f $file ]] || mapfile -t old < <(awk -v s="$server" '$1 != s' "$file")
  printf '%s\n' "${old[@]}" "${expect[@]}" | sed '/^$/d' | sort >"$file.new" && mv -f "$file.new" "$file"
}

# Writes the target and this cluster's drop-in, RequiresMountsFor= each expected mount point, and reloads systemd
# when either changed.
write_units() {
  local dir=$UNIT_DIR/$TARGET.d want mps changed=0
  want="[Unit]"$'\n'"Description=The storage servers of this node mounted (client-mount.sh of StorageServer)"
  if [[ ! -f $UNIT_DIR/$TARGET || $(<"$UNIT_DIR/$TARGET") != "$want" ]]; then
    { [[ -d $UNIT_DIR ]] || mkdir -p "$UNIT_DIR"; } && printf '%s\n' "$want" >"$UNIT_DIR/$TARGET" && changed=1
  fi
  mps=$(awk '$2 != "-" { printf " %s", $2 }' "$EXPECTED_DIR/$cluster")
  want="[Unit]${mps:+$'\n'RequiresMountsFor=${mps# }}"
  if [[ ! -f $dir/$cluster.conf || $(<"$dir/$cluster.conf") != "$want" ]]; then
    { [[ -d $dir ]] || mkdir -p "$dir"; } && printf '%s\n' "$want" >"$dir/$cluster.conf" && changed=1
  fi
  ((!changed)) || systemctl daemon-reload || warn "TARGET-FAILED systemctl daemon-reload failed (see above)"
}

# Prints <cluster>/<server> for every expected mount of every cluster that is not in the mount table.
missing_mounts() {
  local f table=$MOUNTINFO
  [[ -r $table ]] || table=/dev/null
  for f in "$EXPECTED_DIR"/*; do
    [[ -f $f ]] || continue
    awk -v c="${f##*/}" 'FILENAME == ARGV[1] { m[$5] = 1; next } !($2 in m) { print c "/" $1 }' "$table" "$f"
  done
}

# The node's readiness: the expected mounts written down, the target and its drop-in; on the first run of a boot
# (target not active) the failed mounts retried with backoff until the bound, then the target started when every
# expected mount is there, else ATTENTION NOT-READY. The target is never stopped: what is ordered after it would
# stop too, and a failed mount at a later run must not take down what works.
become_ready() {
  have_systemd || { say "no systemd here: $TARGET not written, nothing waits for the mounts"; return 0; }
  write_expected
  write_units
  local delay=$((retry_delay > 0 ? retry_delay : 1)) r again missing left
  while ((first && ${#retry[@]})); do
    left=$((deadline - SECONDS))
    ((left > 0)) || break
    sleep $((delay < left ? delay : left))
    delay=$((delay * 2 < 60 ? delay * 2 : 60))
    again=()
    for r in "${retry[@]}"; do
      IFS=$'\t' read -r srv a b nc <<<"$r"
      if try_mount "$b"; then
        say "mounted $a on $b"
        [[ $a == *@tcp:* ]] || ((read_ahead == 0)) || apply_read_ahead "$b"
        ((!nc)) || report_nconnect "$b"
      else again+=("$r"); fi
    done
    retry=("${again[@]}")
  done
  for r in "${retry[@]}"; do
    IFS=$'\t' read -r srv a b nc <<<"$r"
    warn "MOUNT-FAILED $a on $b within $((bound / 60)) min $((bound % 60)) s; the fstab line stays, the next run retries."
  done
  missing=$(missing_mounts | sort -u | xargs)
  if [[ -z $missing ]]; then
    systemctl is-active --quiet "$TARGET" && return 0
    if systemctl start "$TARGET"; then say "every expected mount is in place: $TARGET started"
    else warn "TARGET-FAILED systemctl start $TARGET failed (see above)"; fi
  elif ((first)); then
    attention=1
    echo "storage-server: ATTENTION NOT-READY $missing: not mounted within $((bound / 60)) min $((bound % 60)) s of this boot's first run; $TARGET not started"
  fi
}
