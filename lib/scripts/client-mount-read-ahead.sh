# client-mount.sh's NFS read-ahead: the udev rule and nfsrahead's section for later mounts, and each mount's now.
# Part of client-mount.sh, which reads it from beside itself. The SSM document carries its text, less this opening
# comment, in place of the line that reads it: see lib/script-parts.ts.
# shellcheck shell=bash disable=SC2034,SC2154 # client-mount.sh's globals: checked whole, with the script

# The udev rule (and nfsrahead's [nfsrahead] section) that set the NFS read-ahead at every later NFS mount (see the
# header); with --read-ahead-kib 0, both removed. Each file is rewritten only when its text differs.
configure_read_ahead() {
  local awk_path rule conf
  if ((read_ahead == 0)); then
    local f
    for f in "$READ_AHEAD_RULE" "$READ_AHEAD_CONF"; do
      [[ -e $f ]] || continue
      if rm -f -- "$f"; then say "read-ahead left to the kernel (--read-ahead-kib 0): removed $f"
      else warn "READ-AHEAD cannot remove $f (see above); later NFS mounts still get its read-ahead"; fi
      [[ $f != "$READ_AHEAD_RULE" ]] || reload_udev
    done
    return 0
  fi
  awk_path=$(command -v awk || true)
  if [[ ! $awk_path =~ ^(/[A-Za-z0-9._-]+)+$ ]]; then
    warn "READ-AHEAD no awk on PATH for the udev rule; later NFS mounts keep the kernel's read-ahead (this run's are set)"
    return 0
  fi
  # $kernel is the bdi's name, <major>:<minor>; udev reads $$ as $, so awk sees $4 (the DEV column).
  # shellcheck disable=SC2016 # $kernel and $$4 are udev's and awk's, not the shell's
  rule=$(printf '%s\n' \
    '# Written by storage-server client-mount.sh (--read-ahead-kib; docs/design.md, section 9): the read-ahead of every' \
    "# NFS mount, as amazon-ec2-utils' 53-ec2-read-ahead-kb.rules sets it. Named to run after nfs-utils' 99-nfs.rules." &&
    printf 'SUBSYSTEM=="bdi", ACTION=="add", PROGRAM="%s -v bdi=$kernel '\''BEGIN{ret=1} {if ($$4 == bdi) {ret=0}} END{exit ret}'\'' /proc/fs/nfsfs/volumes", ATTR{read_ahead_kb}="%s"\n' \
      "$awk_path" "$read_ahead")
  conf=$(printf '%s\n' \
    '# Written by storage-server client-mount.sh (--read-ahead-kib): nfsrahead (nfs-utils 2.6.2 and later, 99-nfs.rules)' \
    '# would otherwise set 128 KiB at every NFS mount.' \
    '[nfsrahead]' "nfs=$read_ahead" "nfs4=$read_ahead")
  if write_if_changed "$READ_AHEAD_RULE" "$rule"; then reload_udev; fi
  write_if_changed "$READ_AHEAD_CONF" "$conf" || true
}

# Writes $2 and a newline to $1 (0644, its directory made) when it holds something else; true when it wrote.
write_if_changed() {
  [[ ! -f $1 || $(cat -- "$1") != "$2" ]] || return 1
  if { [[ -d $(dirname -- "$1") ]] || mkdir -p -- "$(dirname -- "$1")"; } && printf '%s\n' "$2" >"$1.new" && chmod 0644 "$1.new" && mv -f -- "$1.new" "$1"; then
    say "read-ahead for later NFS mounts: wrote $1 ($read_ahead KiB)"
    return 0
  fi
  warn "READ-AHEAD cannot write $1 (see above); later NFS mounts may keep the kernel's read-ahead"
  return 1
}

reload_udev() {
  [[ $READ_AHEAD_RULE == /etc/udev/* ]] && command -v udevadm >/dev/null || return 0
  udevadm control --reload 2>/dev/null || true
}

# Sets the read-ahead of the NFS mount on $1 now: its bdi is /sys/class/bdi/<major>:<minor>, the numbers from field 3
# of /proc/self/mountinfo (the last mount on $1: the one on top).
apply_read_ahead() {
  local mp=$1 dev file now
  dev=$(awk -v mp="$mp" '$5 == mp { dev = $3 } END { print dev }' "$MOUNTINFO" 2>/dev/null || true)
  if [[ ! $dev =~ ^[0-9]+:[0-9]+$ ]]; then
    say "read-ahead of $mp not set now: no mount on it in $MOUNTINFO (the udev rule sets it at its next mount)"
    return 0
  fi
  file=$SYSFS/class/bdi/$dev/read_ahead_kb
  now=$(cat -- "$file" 2>/dev/null || true)
  [[ $now != "$read_ahead" ]] || return 0
  if printf '%s\n' "$read_ahead" 2>/dev/null >"$file"; then
    say "read-ahead of $mp (bdi $dev) set to $read_ahead KiB (was ${now:-unknown} KiB)"
  else
    warn "READ-AHEAD cannot write $file for $mp; it keeps ${now:-its} KiB"
  fi
}
