# client-mount.sh's command line: usage, the checks of each argument, parse_args.
# Part of client-mount.sh, which reads it from beside itself. The SSM document carries its text, less this opening
# comment, in place of the line that reads it: see lib/script-parts.ts.
# shellcheck shell=bash disable=SC2034,SC2154 # client-mount.sh's globals: checked whole, with the script

usage() {
  sed -n '/^# Usage:/,/^# disappeared/p' "$0" >&2
  exit 1
}

valid_name() { [[ $1 =~ ^[A-Za-z0-9_.-]{1,64}$ ]]; }

# A comma list of CIDRs, each a canonical dotted quad with a prefix of 1-32 bits.
valid_cidrs() {
  local cidr rest=$1
  [[ -n $rest && $rest != *, ]] || return 1
  while [[ -n $rest ]]; do
    cidr=${rest%%,*}
    [[ $cidr =~ $CIDR_RE ]] || return 1
    [[ $rest == *,* ]] && rest=${rest#*,} || rest=''
  done
}

# A comma list of mount roots: absolute paths of [A-Za-z0-9_.-] segments, none "." or "..", none of them /, a
# directory the FHS names for other files (NAMED_DIRECTORIES), a system directory or below one.
valid_roots() {
  local root rest=$1 d
  [[ -n $rest && $rest != *, ]] || return 1
  while [[ -n $rest ]]; do
    root=${rest%%,*}
    [[ $root =~ ^(/[A-Za-z0-9_.-]+)+$ && /$root/ != */./* && /$root/ != */../* ]] || return 1
    for d in $SYSTEM_DIRECTORIES; do
      [[ $root != "$d" && $root != "$d"/* ]] || return 1
    done
    for d in $NAMED_DIRECTORIES; do
      [[ $root != "$d" ]] || return 1
    done
    [[ $rest == *,* ]] && rest=${rest#*,} || rest=''
  done
}

parse_args() {
  while (($#)); do
    case $1 in
      --cluster) cluster=${2:-} && shift ;;
      --prefix) prefix=${2:-} && shift ;;
      --server) server=${2:-} && shift ;;
      --fstab) fstab=${2:-} && shift ;;
      --allowed-servers) allowed_servers=${2:-} && shift ;;
      --mount-roots) mount_roots=${2:-} && shift ;;
      --allow-home) allow_home=1 ;;
      --read-ahead-kib) read_ahead=${2:-} && shift ;;
      --ready-timeout-minutes) ready_minutes=${2:-} && shift ;;
      --no-mount) do_mount=0 ;;
      --dry-run) dry_run=1 do_mount=0 ;;
      -h | --help) usage ;;
      *) die "unknown argument '$1'; see --help" ;;
    esac
    shift
  done
  valid_name "$cluster" || die "--cluster must be 1-64 characters of A-Z a-z 0-9 _ . -, got '$cluster'"
  [[ -z $server ]] || valid_name "$server" || die "--server must be 1-64 characters of A-Z a-z 0-9 _ . -, got '$server'"
  [[ $prefix =~ ^(/[A-Za-z0-9_.-]+)+$ ]] || die "--prefix must be /-separated levels of A-Z a-z 0-9 _ . -, got '$prefix'"
  [[ -n $allowed_servers ]] ||
    die "--allowed-servers is required: the CIDRs a record's server address must lie in (e.g. the VPC's, 10.0.0.0/16); a record names the server this node mounts as root"
  valid_cidrs "$allowed_servers" ||
    die "--allowed-servers must be a comma list of IPv4 CIDRs such as 10.0.0.0/16 (no leading zeros, prefix /1-/32), got '$allowed_servers'"
  valid_roots "$mount_roots" ||
    die "--mount-roots must be a comma list of absolute directories of A-Z a-z 0-9 _ . - (no '.' or '..'), none of them /, $NAMED_DIRECTORIES (a directory below one is allowed), a system directory or below one ($SYSTEM_DIRECTORIES; /home with --allow-home), got '$mount_roots'"
  ((!allow_home)) || mount_roots+=,/home
  [[ $read_ahead =~ ^(0|[1-9][0-9]{0,6})$ && $read_ahead -le $MAX_READ_AHEAD_KIB ]] ||
    die "--read-ahead-kib must be a whole number of KiB from 0 (the kernel's own read-ahead) to $MAX_READ_AHEAD_KIB, got '$read_ahead'"
  [[ $ready_minutes =~ ^[1-9][0-9]{0,3}$ && $ready_minutes -le $MAX_READY_MINUTES ]] ||
    die "--ready-timeout-minutes must be a whole number of minutes from 1 to $MAX_READY_MINUTES, got '$ready_minutes'"
  [[ -z ${CLIENT_MOUNT_READY_SECONDS:-} || $CLIENT_MOUNT_READY_SECONDS =~ ^[0-9]+$ ]] || die "CLIENT_MOUNT_READY_SECONDS must be a whole number"
  [[ -f $fstab ]] || die "--fstab '$fstab' is not a file"
  [[ $attempts =~ ^[1-9][0-9]*$ && $retry_delay =~ ^[0-9]+$ ]] ||
    die "CLIENT_MOUNT_ATTEMPTS must be a whole number >= 1 and CLIENT_MOUNT_RETRY_DELAY >= 0 seconds"
}
