# client-mount.sh's nconnect: whether this kernel takes it, by a probe mount; the lines without it; the report.
# Part of client-mount.sh, which reads it from beside itself. The SSM document carries its text, less this opening
# comment, in place of the line that reads it: see lib/script-parts.ts.
# shellcheck shell=bash disable=SC2034,SC2154 # client-mount.sh's globals: checked whole, with the script

# The options (field 4) of fstab line $1.
fstab_options() { local f1 f2 f3 opts rest; read -r f1 f2 f3 opts rest <<<"$1"; printf '%s' "$opts"; }
has_nconnect() { [[ ,$(fstab_options "$1"), == *,nconnect=* ]]; }
# $1 (an options list, or an fstab line's options field) without nconnect=N.
options_without_nconnect() {
  local o kept=() parts
  IFS=, read -ra parts <<<"$1"
  for o in "${parts[@]}"; do [[ $o == nconnect=* ]] || kept+=("$o"); done
  local IFS=,
  printf '%s' "${kept[*]}"
}
line_without_nconnect() {
  local f1 f2 f3 opts rest
  read -r f1 f2 f3 opts rest <<<"$1"
  printf '%s %s %s %s %s' "$f1" "$f2" "$f3" "$(options_without_nconnect "$opts")" "$rest"
}

# True unless this kernel refuses nconnect (the header says how it is found out, once a run): an NFS mount already
# showing nconnect= in the mount table (field 3 after the "-" separator of /proc/self/mountinfo), else a probe mount
# of $1, an NFS record's source, with the options of its fstab line $2. Sets nconnect_why when it refuses.
nconnect_ok() {
  if [[ $nconnect_state == unknown ]]; then
    if awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) ~ /^nfs4?$/ && ("," $(i + 3) ",") ~ /,nconnect=[0-9]+,/) found = 1; break } }
        END { exit !found }' "$MOUNTINFO" 2>/dev/null; then
      nconnect_state=yes
    else
      nconnect_probe "$1" "$(fstab_options "$2")"
    fi
  fi
  [[ $nconnect_state != no ]]
}

# Mounts $1 with options $2 on a private temporary directory (mode 0700, made by mktemp) and unmounts it; retry=0:
# mount.nfs tries once. Prints mount's output; returns its status.
probe_mount() {
  local dir rc=0
  dir=$(mktemp -d "${TMPDIR:-/tmp}/storage-server-nconnect.XXXXXX") || return 1
  mount -t nfs4 -o "$2,retry=0" -- "$1" "$dir" </dev/null 2>&1 || rc=$?
  if ((rc == 0)); then umount -- "$dir" 2>/dev/null || umount -l -- "$dir" 2>/dev/null || true; fi
  rmdir -- "$dir" 2>/dev/null || true
  return "$rc"
}

# Sets nconnect_state (and nconnect_why) by mounting $1 with options $2, which have nconnect=, on a temporary directory.
nconnect_probe() {
  local source=$1 opts=$2 out rc=0 out2 rc2=0
  nconnect_state=yes
  # stdin is the records' loop (main): a package manager must not read it.
  ensure_nfs_client </dev/null
  out=$(probe_mount "$source" "$opts") || rc=$?
  # Mounted, or failed after the kernel parsed the options (an unreachable server, a refused export): nconnect is known.
  [[ $rc == 32 && $out == *'incorrect mount option'* ]] || return 0
  out2=$(probe_mount "$source" "$(options_without_nconnect "$opts")") || rc2=$?
  if [[ $rc2 == 32 && $out2 == *'incorrect mount option'* ]]; then
    say "nconnect kept: $source is refused with and without it ($(head -n 1 <<<"$out")), so nconnect is not the cause"
    return 0
  fi
  nconnect_state=no
  nconnect_why="this kernel ($(uname -r)) refuses the option: mount.nfs exit 32, '$(head -n 1 <<<"$out")', and $source is not refused without it"
}

# Says so when the NFS mount on $1 was asked for nconnect and the kernel shows none (the super options in
# /proc/self/mountinfo): a mount joins the connections of an earlier mount of the same server (NFSv4.1 finds the same
# server behind other addresses too), whose count the first mount fixed [SUSE-KB].
report_nconnect() {
  local opts
  opts=$(awk -v mp="$1" '$5 == mp { for (i = 7; i < NF; i++) if ($i == "-") { o = $(i + 3); break } } END { print o }' \
    "$MOUNTINFO" 2>/dev/null || true)
  [[ -n $opts && ,$opts, != *,nconnect=* ]] || return 0
  say "nconnect not in effect on $1: the kernel shares the connections of an earlier mount of the same server made without it; it takes effect once every mount of that server is unmounted (a reboot at the latest)"
}
