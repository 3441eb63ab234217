#!/usr/bin/env bash
# Mounts the NFS storage servers of an HPC cluster on this node, from the mount configs the StorageServer
# registration keeps in SSM Parameter Store (DESIGN.md, contract 3):
#   <prefix>/<cluster>/storage/<server>/mount = {"server","exportPath","mountPoint","fsType":"nfs4","options","fstab"}
# Run by the client-mount SSM document (State Manager: at a node's first boot and on a schedule) or by hand.
#
# Usage: client-mount.sh --cluster NAME [--prefix /storage-server] [--server NAME] [--fstab FILE]
#                        [--no-mount] [--dry-run]
#   --server    only this server's config (default: every server of the cluster)
#   --fstab     the fstab to edit (default /etc/fstab); mounts use it too (mount -T)
#   --no-mount  edit the fstab, but create no directory and mount nothing
#   --dry-run   change nothing; print the report and the fstab that would be written
# Exit status: 0 every config is in fstab and mounted; 1 nothing done (bad usage, records unreadable);
# 2 done, but something needs a person: a malformed record, a conflicting fstab line, a config that
# disappeared, or a mount that failed. Each is reported on one line with the parameter or fstab entry.
#
# Every line this script owns ends with the tag " # storage-server:<cluster>/<server>", so a re-run
# replaces it in place and never adds a second one. libmount (mount, findmnt, systemd's fstab
# generator) ignores text after the sixth field. A line whose config disappeared is reported and
# left alone, still mounted: a config can vanish briefly while a server is replaced, and unmounting a
# busy data mount, or dropping it from fstab so the next boot writes into the bare directory, does
# more harm than a stale line a person removes by hand.
#
# Records are read with the AWS CLI (`aws ssm get-parameters-by-path ... --recursive`): the CLI signs
# the requests, finds the credentials (the instance role included) and reads every page. When `aws` is
# missing, the distribution's package is installed (not by --dry-run): awscli-2 with dnf (Amazon Linux
# 2023), awscli with yum (Amazon Linux 2) or with apt-get (Debian; Ubuntu dropped it in 24.04, install
# the CLI by hand there); if that fails, the script stops with exit 1. The region is AWS_REGION or
# AWS_DEFAULT_REGION, else the instance's own, asked of the instance metadata service (IMDSv2, curl).
# AWS_ENDPOINT_URL_SSM or AWS_ENDPOINT_URL is passed on as --endpoint-url, because older packaged CLIs
# (Debian 12's 2.9) ignore those variables. python3 parses and checks the records, which plain shell
# cannot do safely; it is on every image cloud-init runs on.
set -euo pipefail

readonly TAG_PREFIX='# storage-server:'
cluster='' prefix='/storage-server' server='' fstab='/etc/fstab' do_mount=1 dry_run=0
attempts=${CLIENT_MOUNT_ATTEMPTS:-3} retry_delay=${CLIENT_MOUNT_RETRY_DELAY:-10}
lock_file=${CLIENT_MOUNT_LOCK:-/run/lock/storage-server-client-mount.lock}
attention=0

say() { printf 'client-mount: %s\n' "$*"; }
warn() {
  attention=1
  printf 'client-mount: ATTENTION %s\n' "$*"
}
die() {
  printf 'client-mount: ERROR %s\n' "$*" >&2
  exit 1
}

read -r -d '' PY <<'PYTHON' || true
import ipaddress, json, re, sys

FIELD = re.compile(r'^[^\s\x00-\x1f\x7f#\\]+$')
HOST = re.compile(r'^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$')

def problem(rec):
    """Why a decoded record is not a contract 3 mount config, or None."""
    if not isinstance(rec, dict):
        return 'is not a JSON object'
    keys = ['server', 'exportPath', 'mountPoint', 'fsType', 'options', 'fstab']
    bad = [k for k in keys if not isinstance(rec.get(k), str)]
    if bad:
        return 'lacks string field(s) ' + ', '.join(bad)
    try:
        ipaddress.IPv4Address(rec['server'])
    except ValueError:
        if len(rec['server']) > 253 or not HOST.match(rec['server']):
            return 'server ' + json.dumps(rec['server']) + ' is neither an IPv4 address nor a DNS name'
    for k in ['exportPath', 'mountPoint']:
        v = rec[k]
        if not v.startswith('/') or not FIELD.match(v) or len(v) > 255 or '..' in v.split('/'):
            return k + ' ' + json.dumps(v) + ' is not an absolute path without whitespace, # or backslash'
    if rec['mountPoint'].rstrip('/') == '':
        return 'mountPoint "/" would hide the root file system'
    if rec['fsType'] != 'nfs4':
        return 'fsType ' + json.dumps(rec['fsType']) + ' is not "nfs4"'
    if not FIELD.match(rec['options']) or len(rec['options']) > 1024:
        return 'options ' + json.dumps(rec['options']) + ' is not one option list without whitespace'
    line = rec['server'] + ':' + rec['exportPath'] + ' ' + rec['mountPoint'] + ' nfs4 ' + rec['options'] + ' 0 0'
    if rec['fstab'] != line:
        return 'fstab ' + json.dumps(rec['fstab']) + ' disagrees with its fields (expected ' + json.dumps(line) + ')'
    return None

def parse(root, only):
    """Reads GetParametersByPath JSON, prints one tab-separated line per server's mount record."""
    name_re = re.compile('^' + re.escape(root) + r'([A-Za-z0-9_.-]{1,64})/mount$')
    records = {}
    for p in json.load(sys.stdin).get('Parameters', []):
        m = name_re.match(p.get('Name', ''))
        if m and (not only or m.group(1) == only):
            records[m.group(1)] = p
    claimed = {}
    for srv in sorted(records):
        name = records[srv]['Name']
        try:
            rec = json.loads(records[srv].get('Value', ''))
            why = problem(rec)
        except ValueError as e:
            why = 'is not JSON (' + str(e) + ')'
        if why:
            print('\t'.join(['bad', srv, name, why]))
        elif rec['mountPoint'] in claimed:
            print('\t'.join(['bad', srv, name, 'mountPoint ' + rec['mountPoint'] + ' is already used by server ' +
                             claimed[rec['mountPoint']]]))
        else:
            claimed[rec['mountPoint']] = srv
            print('\t'.join(['ok', srv, name, rec['server'] + ':' + rec['exportPath'], rec['mountPoint'],
                             rec['fstab']]))

parse(sys.argv[1], sys.argv[2])
PYTHON

usage() {
  sed -n '7,15p' "$0" >&2
  exit 1
}

valid_name() { [[ $1 =~ ^[A-Za-z0-9_.-]{1,64}$ ]]; }

parse_args() {
  while (($#)); do
    case $1 in
      --cluster) cluster=${2:-} && shift ;;
      --prefix) prefix=${2:-} && shift ;;
      --server) server=${2:-} && shift ;;
      --fstab) fstab=${2:-} && shift ;;
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
  [[ -f $fstab ]] || die "--fstab '$fstab' is not a file"
  [[ $attempts =~ ^[1-9][0-9]*$ && $retry_delay =~ ^[0-9]+$ ]] ||
    die "CLIENT_MOUNT_ATTEMPTS must be a whole number >= 1 and CLIENT_MOUNT_RETRY_DELAY >= 0 seconds"
}

# Makes sure the AWS CLI is on PATH: installs the distribution's package when it is missing.
ensure_aws_cli() {
  command -v aws >/dev/null && return 0
  local pm pkg ok=1
  if command -v dnf >/dev/null; then pm=dnf pkg=awscli-2
  elif command -v yum >/dev/null; then pm=yum pkg=awscli
  elif command -v apt-get >/dev/null; then pm=apt-get pkg=awscli
  else die "no AWS CLI (aws) to read the mount configs with, and no dnf, yum or apt-get to install one; install the AWS CLI and re-run"; fi
  ((!dry_run)) || die "no AWS CLI (aws) to read the mount configs with, and --dry-run installs nothing; install the package $pkg ($pm) and re-run"
  say "no AWS CLI (aws): installing the package $pkg with $pm"
  if [[ $pm == apt-get ]]; then
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"; } || ok=0
  else
    "$pm" install -y -q "$pkg" || ok=0
  fi
  hash -r
  local hint=''
  [[ $pm != apt-get ]] || hint=' (Ubuntu 24.04 and later have no awscli package: snap install aws-cli --classic)'
  ((ok)) || die "could not install the AWS CLI: '$pm install $pkg' failed (see above); install the AWS CLI$hint and re-run"
  command -v aws >/dev/null || die "'$pm install $pkg' succeeded, but there is still no aws command on PATH ($PATH); install the AWS CLI and re-run"
}

# Sets `region`: AWS_REGION or AWS_DEFAULT_REGION, else this instance's region from IMDSv2.
resolve_region() {
  region=${AWS_REGION:-${AWS_DEFAULT_REGION:-}}
  [[ -z $region ]] || return 0
  local imds=${AWS_EC2_METADATA_SERVICE_ENDPOINT:-http://169.254.169.254} token=''
  imds=${imds%/}
  if [[ ${AWS_EC2_METADATA_DISABLED:-} != true ]] && command -v curl >/dev/null; then
    token=$(curl -fsS --connect-timeout 2 --max-time 5 -X PUT -H 'X-aws-ec2-metadata-token-ttl-seconds: 60' \
      "$imds/latest/api/token") &&
      region=$(curl -fsS --connect-timeout 2 --max-time 5 -H "X-aws-ec2-metadata-token: $token" \
        "$imds/latest/meta-data/placement/region") || region=''
  fi
  [[ $region =~ ^[a-z0-9-]+$ ]] ||
    die "no AWS region: set AWS_REGION, or run on an EC2 instance whose metadata service (IMDSv2, read with curl) answers"
}

# Prints the GetParametersByPath result for $1 as JSON (the CLI reads every page).
fetch_records() {
  local args=(ssm get-parameters-by-path --path "$1" --recursive --output json --region "$region")
  local endpoint=${AWS_ENDPOINT_URL_SSM:-${AWS_ENDPOINT_URL:-}}
  [[ -z $endpoint ]] || args+=(--endpoint-url "$endpoint")
  AWS_PAGER='' aws "${args[@]}"
}

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

report_stale() {
  local known=" $* " l srv
  for l in "${lines[@]}"; do
    [[ $l == *" $TAG_PREFIX$cluster/"* ]] || continue
    srv=${l##*" $TAG_PREFIX$cluster/"}
    [[ -z $server || $srv == "$server" ]] || continue
    [[ $known == *" $srv "* ]] && continue
    warn "STALE $cluster/$srv: its mount config $(records_path)$srv/mount is gone; left in fstab and mounted as it is: '$l'. Unmount it and delete the line by hand when it is no longer used."
  done
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

ensure_nfs_client() {
  PATH=$PATH:/usr/sbin:/sbin command -v mount.nfs4 >/dev/null && return 0
  say "installing the NFS client"
  if command -v dnf >/dev/null; then dnf install -y -q nfs-utils
  elif command -v yum >/dev/null; then yum install -y -q nfs-utils
  elif command -v apt-get >/dev/null; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nfs-common
  else die "no NFS client (mount.nfs4) and no dnf, yum or apt-get to install one"; fi
}

mount_one() {
  local srv=$1 source=$2 mp=$3 current n
  mkdir -p "$mp"
  current=$(findmnt -rn -o SOURCE --mountpoint "$mp" 2>/dev/null | tail -n 1 || true)
  if [[ $current == "$source" ]]; then say "already mounted: $source on $mp"; return 0; fi
  if [[ -n $current ]]; then
    warn "MOUNTED-ELSEWHERE $mp holds $current, the config of $cluster/$srv says $source; not remounting a data mount in use. Unmount it when idle and re-run."
    return 0
  fi
  for ((n = 1; n <= attempts; n++)); do
    if mount -T "$fstab" "$mp"; then say "mounted $source on $mp"; return 0; fi
    ((n == attempts)) || sleep "$retry_delay"
  done
  warn "MOUNT-FAILED $source on $mp after $attempts attempts; the fstab line stays, the next run retries."
}

main() {
  parse_args "$@"
  if ((!dry_run)) && command -v flock >/dev/null; then
    mkdir -p "$(dirname "$lock_file")"
    exec 9>>"$lock_file"
    flock -w 600 9 || die "another client-mount run holds $lock_file"
  fi
  local path raw parsed kind srv name a b c region
  path=$(records_path)
  [[ -z $server ]] || path+="$server/"
  command -v python3 >/dev/null || die "python3 is needed to parse the mount records; install it"
  ensure_aws_cli
  resolve_region
  raw=$(fetch_records "$path") || die "cannot read the mount configs under $path (see above)"
  parsed=$(python3 -c "$PY" "$(records_path)" "$server" <<<"$raw") || die "cannot parse the answer for $path"
  mapfile -t lines <"$fstab"
  local known=() mounts=()
  while IFS=$'\t' read -r kind srv name a b c; do
    [[ -n $kind ]] || continue
    known+=("$srv")
    if [[ $kind == bad ]]; then
      warn "MALFORMED $name: $a; not mounted (a line already in fstab for it is left as it is)"
    elif place_line "$srv" "$a" "$b" "$c"; then
      mounts+=("$srv"$'\t'"$a"$'\t'"$b")
    fi
  done <<<"$parsed"
  ((${#known[@]})) || say "no mount config under $path"
  report_stale "${known[@]}"
  local before
  before=$(cat "$fstab")
  if [[ $before != "$(render_lines)" ]]; then
    if ((dry_run)); then say "dry run: fstab not written"; else write_fstab; fi
  fi
  if ((dry_run)); then
    printf '%s\n' '--- fstab after this run ---'
    render_lines
    printf '%s\n' '--- end ---'
  fi
  if ((do_mount && ${#mounts[@]})); then
    ensure_nfs_client
    local m
    for m in "${mounts[@]}"; do
      IFS=$'\t' read -r srv a b <<<"$m"
      mount_one "$srv" "$a" "$b"
    done
  fi
  if ((attention)); then say "done; something above needs attention"; exit 2; fi
  say "done"
}

main "$@"
