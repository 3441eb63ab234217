# client-mount.sh's fstab: its tagged lines placed, stale ones reported, the file written.
# Part of client-mount.sh, which reads it from beside itself. The SSM document carries its text, less this opening
# comment, in place of the line that reads it: see lib/script-parts.ts.
# shellcheck shell=bash disable=SC2034,SC2154 # client-mount.sh's globals: checked whole, with the script

tag_of() { printf ' %s%s/%s' "$TAG_PREFIX" "$cluster" "$1"; }

# Fields 1 and 2 of an active fstab line ("" for comments and blank lines).
fstab_source() { [[ $1 =~ ^[[:space:]]*([^#[:space:]][^[:space:]]*)[[:space:]]+([^[:space:]]+) ]] && printf '%s' "${BASH_REMATCH[1]}"; }
fstab_target() { [[ $1 =~ ^[[:space:]]*([^#[:space:]][^[:space:]]*)[[:space:]]+([^[:space:]]+) ]] && printf '%s' "${BASH_REMATCH[2]}"; }

# Puts one record's line into the `lines` array: in place of its tagged line, or of an identical
# hand-written entry, or at the end. Returns 1 (after reporting) when another entry holds the mount point.
place_line() {
  local srv=$1 source=$2 mp=$3 line=$4 tag i own=-1 adopt=-1
  tag=$(tag_of "$srv")
  local want="$line$tag"
  for i in "${!lines[@]}"; do
    if [[ ${lines[i]} == *"$tag" ]]; then
      if ((own < 0)); then own=$i; else
        say "removed duplicate fstab line for $cluster/$srv: ${lines[i]}"
        unset 'lines[i]'
      fi
    elif [[ $(fstab_target "${lines[i]}") == "$mp" ]]; then
      if [[ $(fstab_source "${lines[i]}") == "$source" && ${lines[i]} != *" $TAG_PREFIX"* && $adopt -lt 0 ]]; then
        adopt=$i
      else
        warn "CONFLICT $mp: fstab already has '${lines[i]}'; not adding $source for $cluster/$srv. Remove that line and re-run."
        return 1
      fi
    fi
  done
  if ((own >= 0 && adopt >= 0)); then
    warn "DUPLICATE $mp: a hand-written line '${lines[adopt]}' repeats the entry of $cluster/$srv; remove it by hand."
  fi
  if ((own >= 0)); then
    [[ ${lines[own]} == "$want" ]] && say "fstab unchanged for $cluster/$srv: $line" && return 0
    say "fstab updated for $cluster/$srv: ${lines[own]} -> $want"
    lines[own]=$want
  elif ((adopt >= 0)); then
    say "fstab entry adopted for $cluster/$srv (tagged in place): $want"
    lines[adopt]=$want
  else
    say "fstab added for $cluster/$srv: $want"
    lines+=("$want")
  fi
}

# The fstab as the `lines` array holds it.
render_lines() { ((${#lines[@]} == 0)) || printf '%s\n' "${lines[@]}"; }

records_path() { printf '%s/%s/storage/' "$prefix" "$cluster"; }

write_fstab() {
  local tmp
  tmp=$(mktemp "$fstab.XXXXXX")
  render_lines >"$tmp"
  chmod --reference="$fstab" "$tmp" && chown --reference="$fstab" "$tmp"
  cp -p "$fstab" "$fstab.storage-server.bak"
  mv -f "$tmp" "$fstab"
  [[ $fstab != /etc/fstab ]] || ! command -v systemctl >/dev/null || systemctl daemon-reload 2>/dev/null || true
}
