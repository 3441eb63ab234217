# shellcheck shell=bash disable=SC2034 # ID_TAG, CLD_DIR: read by the other parts
# storage-bootstrap, its settings: /etc/storage-server/bootstrap.env parsed, never sourced, and every value checked.
# Then what the other parts derive from them: the identity tag of the volume group, the NFSv4 server scope, where nfsd
# keeps its state, and the nfsd thread count. Part of storage-bootstrap.sh, which reads it from beside itself. The
# server gets its text, less this opening comment, in place of the line that reads it: see lib/script-parts.ts.

# The settings file is parsed, never sourced: only the known keys, each one KEY='value' line, every value
# validated below. Nothing in it can run as root.
SETTINGS_KEYS=" STORAGE_BACKEND STORAGE_EBS_VOLUMES STORAGE_INSTANCE_STORE_DEVICES STORAGE_EXPORT_PATH STORAGE_CLIENT_CIDRS"
SETTINGS_KEYS+=" STORAGE_NFS_THREADS STORAGE_EXPORT_MODE STORAGE_NFS_VERSIONS STORAGE_STRIPE_KIB STORAGE_VOLUME_WAIT_SECONDS"
SETTINGS_KEYS+=" STORAGE_IDENTITY STORAGE_RESTORED STORAGE_NETWORK_INTERFACE STORAGE_ENCRYPTION"
SETTINGS_KEYS+=" STORAGE_METRICS_CLUSTER STORAGE_METRICS_SERVER STORAGE_QUOTA_DEFAULT_USER_GIB STORAGE_QUOTA_LIMITS"
SETTINGS_KEYS+=" STORAGE_ROOT_CLIENT_CIDRS "
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

# A client CIDR as client-mount.sh takes an allowed-servers CIDR: a canonical dotted quad with /1-/32, or IPv6 with
# /1-/128. Never /0, which would export to every address. Synth and the deploy-time check refuse more, in
# lib/validation.
CLIENT_CIDR_RULE='an IPv4 CIDR in canonical dotted-quad form with a prefix of 1-32, or an IPv6 CIDR with 1-128 (never /0)'
client_cidr_ok() {
  local octet='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
  [[ $1 =~ ^$octet(\.$octet){3}/(3[0-2]|[12][0-9]|[1-9])$ || $1 =~ ^[0-9a-fA-F:]*:[0-9a-fA-F:]*/(12[0-8]|1[01][0-9]|[1-9][0-9]?)$ ]]
}

# ipv4_int <a.b.c.d>: the address as one integer.
ipv4_int() { local a b c d; IFS=. read -r a b c d <<<"$1"; echo $(((a << 24) | (b << 16) | (c << 8) | d)); }

# cidr_within <inner> <outer>: the IPv4 CIDR inner lies wholly within outer, whose prefix is no longer.
cidr_within() {
  local ip=${1%/*} len=${1#*/} net=${2%/*} olen=${2#*/} mask
  [[ $ip != *:* && $net != *:* ]] && ((len >= olen)) || return 1
  mask=$(((0xFFFFFFFF << (32 - olen)) & 0xFFFFFFFF))
  ((($(ipv4_int "$ip") & mask) == ($(ipv4_int "$net") & mask)))
}

# The root clients, exported with no_root_squash: IPv4 CIDRs, each within a client CIDR, each once. Absent from the
# settings of versions before root clients: none, every client root squashed.
root_clients_ok() {
  local v c seen=" " inside
  STORAGE_ROOT_CLIENT_CIDRS=${STORAGE_ROOT_CLIENT_CIDRS:-}
  for v in $STORAGE_ROOT_CLIENT_CIDRS; do
    if [[ $v == *:* ]] || ! client_cidr_ok "$v"; then
      die "setting STORAGE_ROOT_CLIENT_CIDRS '$v' is invalid in $ENV_FILE: an IPv4 CIDR in canonical dotted-quad form with a prefix of 1-32"
    fi
    inside=0
    for c in $STORAGE_CLIENT_CIDRS; do cidr_within "$v" "$c" && inside=1 && break; done
    ((inside)) || die "setting STORAGE_ROOT_CLIENT_CIDRS '$v' is not within any of STORAGE_CLIENT_CIDRS ($STORAGE_CLIENT_CIDRS) in $ENV_FILE"
    [[ $seen != *" $v "* ]] || die "setting STORAGE_ROOT_CLIENT_CIDRS gives $v twice in $ENV_FILE"
    seen+="$v "
  done
}

# XFS quotas: a default hard limit per user, and limits by user, group or project, each once. A project is a directory
# under the export, relative, in the export path's grammar, so never '..' nor the dot-named state directory. No id 0:
# XFS keeps the default limits as id 0's, set by STORAGE_QUOTA_DEFAULT_USER_GIB alone. Absent from the settings of
# versions before quotas: no limits.
quota_settings_ok() {
  local v type qid gib dir seen=" " rel='[A-Za-z0-9_-][A-Za-z0-9._-]*' n='[1-9][0-9]{0,9}'
  STORAGE_QUOTA_DEFAULT_USER_GIB=${STORAGE_QUOTA_DEFAULT_USER_GIB:-}
  STORAGE_QUOTA_LIMITS=${STORAGE_QUOTA_LIMITS:-}
  # GiB from 1, as synth allows: a token that resolves to 0 would silently mean no limit.
  need "$STORAGE_QUOTA_DEFAULT_USER_GIB" "^($n)?\$" STORAGE_QUOTA_DEFAULT_USER_GIB
  # The contract's bound, lib/quotas.ts MAX_QUOTA_VALUE: ten digits pass the pattern, and a token passes synth.
  ((10#${STORAGE_QUOTA_DEFAULT_USER_GIB:-0} <= 2147483647)) ||
    die "setting STORAGE_QUOTA_DEFAULT_USER_GIB '$STORAGE_QUOTA_DEFAULT_USER_GIB' is past 2147483647 GiB in $ENV_FILE"
  for v in $STORAGE_QUOTA_LIMITS; do
    [[ $v =~ ^(user|group):[1-9][0-9]{0,9}:$n$ || $v =~ ^project:[1-9][0-9]{0,9}:$n:$rel(/$rel)*$ ]] ||
      die "setting STORAGE_QUOTA_LIMITS entry '$v' is invalid in $ENV_FILE: user:<id>:<GiB>, group:<id>:<GiB> or" \
        "project:<id>:<GiB>:<directory relative to the export>, ids not 0 (XFS keeps its default limits as id 0's)"
    IFS=: read -r type qid gib dir <<<"$v"
    ((10#$qid <= 2147483647 && 10#$gib <= 2147483647)) ||
      die "setting STORAGE_QUOTA_LIMITS entry '$v': ids and GiB are at most 2147483647, in $ENV_FILE"
    [[ $seen != *" $type:$qid "* ]] || die "setting STORAGE_QUOTA_LIMITS gives $type $qid twice in $ENV_FILE"
    [[ -z $dir || $seen != *" dir:$dir "* ]] || die "setting STORAGE_QUOTA_LIMITS gives directory $dir to two projects in $ENV_FILE"
    seen+="$type:$qid ${dir:+dir:$dir }"
  done
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
  for v in $STORAGE_CLIENT_CIDRS; do client_cidr_ok "$v" || die "setting STORAGE_CLIENT_CIDRS '$v' is invalid in $ENV_FILE: $CLIENT_CIDR_RULE"; done
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
  quota_settings_ok
  root_clients_ok
  ID_TAG="storage-server-id:$STORAGE_IDENTITY"
  # NFSv4 state that outlives the instance. A replacement server, with the same volumes and address, must look to
  # clients like this server rebooting, or they give up reclaiming their opens and locks: the Linux client treats
  # another server scope as another server. So the scope is the identity, not the host name EC2 gives each instance.
  # nfsd takes it from the host name of whoever starts its threads, nfs_units, so it is at most 64 bytes.
  SCOPE=$STORAGE_IDENTITY
  ((${#SCOPE} <= 64)) || SCOPE="${SCOPE:0:47}-$(printf '%s' "$SCOPE" | sha256sum | cut -c1-16)"
  # nfsd's records of the clients that hold state, nfsdcld's database, on the data file system. The kernel lets only
  # recorded clients reclaim after a restart, and a replacement's root volume is new.
  STATE_DIR=$STORAGE_EXPORT_PATH/.storage-server
  CLD_DIR=$STATE_DIR/nfsdcld
  THREADS=${STORAGE_NFS_THREADS:-}
  if [[ -z $THREADS ]]; then # as ParallelCluster does: min(256, max(8, 4 x vCPUs))
    THREADS=$((4 * $(nproc)))
    ((THREADS >= 8)) || THREADS=8
    ((THREADS <= 256)) || THREADS=256
  fi
}
