#!/usr/bin/env bash
# storage-attach: brings this server's EBS data volumes and its stable network interface to this instance, so that a
# replacement instance takes over from the one it replaces. The volumes and the address follow the server.
# CloudFormation creates the replacement before it deletes the old instance, so the old one still holds them when the
# replacement boots.
#
# Usage: storage-attach --instance <i-...> --identity <stack/server> [--interface <eni-...>]
#                       [--wait <seconds>] <vol-id>:/dev/sdX ...
#
# - Every volume and the interface must carry the tag storage-server:id=<identity>. Anything tagged for another server,
#   or not at all, is refused before any change.
# - An instance that holds one of them must be a previous instance of this same server, by the same tag. It is asked to
#   stop, a clean shutdown in which nfsd stops and XFS unmounts, and once stopped, what it holds is detached from it.
#   Anything held by an instance of another server is refused. If the stop is refused by stop protection, it waits for
#   the holder to let go by other means, such as CloudFormation deleting it or an operator.
# - It attaches the volumes in stripe order, each at its device name, then the interface as device index 1, and returns
#   when all are attached here. It is bounded: after --wait seconds, 900 by default, it fails naming what is held.
#
# It needs the AWS CLI and honours AWS_ENDPOINT_URL, by which the tests point it at an AWS API emulator.
set -euo pipefail

TAG=storage-server:id
log() { echo "storage-attach: $*"; }
die() {
  echo "storage-attach: ERROR: $*" >&2
  exit 1
}

SELF="" IDENTITY="" ENI="" WAIT=900 VOLUMES=() DEVICES=()
while (($#)); do
  case $1 in
    --instance) SELF=${2:-} && shift 2 ;;
    --identity) IDENTITY=${2:-} && shift 2 ;;
    --interface) ENI=${2:-} && shift 2 ;;
    --wait) WAIT=${2:-} && shift 2 ;;
    vol-*:/dev/*) VOLUMES+=("${1%%:*}") DEVICES+=("${1#*:}") && shift ;;
    *) die "unexpected argument '$1' (usage: storage-attach --instance i-... --identity ID [--interface eni-...] vol-...:/dev/sdX ...)" ;;
  esac
done
[[ $SELF =~ ^i-[0-9a-f]{8,17}$ ]] || die "--instance must be an instance id such as i-0123456789abcdef0, got '$SELF'"
[[ $IDENTITY =~ ^[A-Za-z0-9_.:/=-]{1,200}$ ]] || die "--identity is invalid: '$IDENTITY'"
[[ -z $ENI || $ENI =~ ^eni-[0-9a-f]{8,17}$ ]] || die "--interface must be an interface id such as eni-0123456789abcdef0, got '$ENI'"
[[ $WAIT =~ ^[0-9]+$ ]] || die "--wait must be a number of seconds, got '$WAIT'"
for v in "${VOLUMES[@]}"; do [[ $v =~ ^vol-[0-9a-f]{8,17}$ ]] || die "bad volume id '$v'"; done
for d in "${DEVICES[@]}"; do [[ $d =~ ^/dev/(sd|xvd)[a-z]{1,2}$ ]] || die "bad device name '$d'"; done
((${#VOLUMES[@]} > 0 || ${#ENI})) || die "nothing to attach: give volumes or --interface"

ec2() { aws ${AWS_ENDPOINT_URL:+--endpoint-url "$AWS_ENDPOINT_URL"} ec2 "$@"; }

# load_volumes: one describe of every volume into VTAG, VSTATE, VHOLDER and VATTACHED, by volume id.
declare -A VTAG VSTATE VHOLDER VATTACHED
load_volumes() {
  local out id tag state holder attached
  VTAG=() VSTATE=() VHOLDER=() VATTACHED=()
  ((${#VOLUMES[@]})) || return 0
  out=$(ec2 describe-volumes --volume-ids "${VOLUMES[@]}" --output text --query \
    "Volumes[].[VolumeId, Tags[?Key=='$TAG'].Value|[0], State, Attachments[0].InstanceId, Attachments[0].State]") ||
    return 1
  while read -r id tag state holder attached; do
    VTAG[$id]=$tag VSTATE[$id]=$state VHOLDER[$id]=$holder VATTACHED[$id]=$attached
  done <<<"$out"
}
# interface_state <eni>: "<tag> <status> <holder|-> <attachment id|->".
interface_state() {
  ec2 describe-network-interfaces --network-interface-ids "$1" --output text --query \
    "NetworkInterfaces[0].[TagSet[?Key=='$TAG'].Value|[0], Status, Attachment.InstanceId, Attachment.AttachmentId]"
}
# instance_state <i>: "<tag> <state>".
instance_state() {
  ec2 describe-instances --instance-ids "$1" --output text --query \
    "Reservations[0].Instances[0].[Tags[?Key=='$TAG'].Value|[0], State.Name]"
}
none() { [[ -z $1 || $1 == None ]]; }

# Ownership first: nothing is stopped, detached or attached unless every resource is this server's.
load_volumes || die "cannot describe the volumes ${VOLUMES[*]}"
for v in "${VOLUMES[@]}"; do
  tag=${VTAG[$v]:-None}
  [[ $tag == "$IDENTITY" ]] || die "volume $v is tagged $TAG=${tag/None/(none)}, not this server ($IDENTITY): refusing to attach it"
done
if [[ -n $ENI ]]; then
  read -r tag _ <<<"$(interface_state "$ENI")"
  [[ $tag == "$IDENTITY" ]] || die "interface $ENI is tagged $TAG=${tag/None/(none)}, not this server ($IDENTITY): refusing to attach it"
fi

declare -A asked=()
# release_from <holder> <what>: a previous instance of this server holds <what>; have it let go.
release_from() {
  local holder=$1 what=$2 tag state
  read -r tag state <<<"$(instance_state "$holder")"
  [[ $tag == "$IDENTITY" ]] ||
    die "$what is held by $holder, an instance of ${tag/None/another server} ($TAG), not a previous instance of $IDENTITY: refusing to take it"
  case $state in
    pending | running)
      if [[ -z ${asked[$holder]:-} ]]; then
        asked[$holder]=1
        log "$what is held by $holder, the instance this one replaces: stopping it (clean shutdown)"
        ec2 stop-instances --instance-ids "$holder" >/dev/null 2>"$ERR" ||
          log "could not stop $holder ($(tr '\n' ' ' <"$ERR")); waiting for it to let go"
      fi
      return 1
      ;;
    stopping | shutting-down) return 1 ;;
  esac
  return 0 # stopped or terminated: what it holds may be detached
}

ERR=$(mktemp)
trap 'rm -f "$ERR"' EXIT
deadline=$((SECONDS + WAIT))
while :; do
  pending=()
  load_volumes || log "describe-volumes failed; retrying"
  for i in "${!VOLUMES[@]}"; do
    v=${VOLUMES[$i]} state=${VSTATE[${VOLUMES[$i]}]:-unknown} holder=${VHOLDER[${VOLUMES[$i]}]:-None}
    attached=${VATTACHED[${VOLUMES[$i]}]:-None}
    if [[ $holder == "$SELF" ]]; then
      [[ $attached == attached ]] || pending+=("$v (attaching here)")
      continue
    fi
    if [[ $state == available ]]; then
      # Stripe order: a volume is attached only once every volume before it is.
      if ((${#pending[@]} == 0)); then
        log "attaching $v as ${DEVICES[$i]} (stripe member $i)"
        ec2 attach-volume --volume-id "$v" --instance-id "$SELF" --device "${DEVICES[$i]}" >/dev/null 2>"$ERR" ||
          log "attach-volume $v failed: $(tr '\n' ' ' <"$ERR")"
        pending+=("$v (being attached)")
      else
        pending+=("$v (free, after the volumes before it)")
      fi
    elif ! none "$holder"; then
      if release_from "$holder" "volume $v" && [[ $attached == attached ]]; then
        log "detaching $v from $holder"
        ec2 detach-volume --volume-id "$v" --instance-id "$holder" >/dev/null 2>"$ERR" ||
          log "detach-volume $v failed: $(tr '\n' ' ' <"$ERR")"
      fi
      pending+=("$v (held by $holder)")
    else
      pending+=("$v ($state)")
    fi
  done
  if [[ -n $ENI ]] && ((${#pending[@]} == 0)); then
    read -r _ status holder attachment <<<"$(interface_state "$ENI")"
    if [[ $holder == "$SELF" && $status == in-use ]]; then
      :
    elif [[ $status == available ]]; then
      log "attaching interface $ENI as device index 1"
      ec2 attach-network-interface --network-interface-id "$ENI" --instance-id "$SELF" --device-index 1 >/dev/null 2>"$ERR" ||
        log "attach-network-interface $ENI failed: $(tr '\n' ' ' <"$ERR")"
      pending+=("interface $ENI (being attached)")
    elif ! none "$holder" && [[ $holder != "$SELF" ]]; then
      if release_from "$holder" "interface $ENI"; then
        log "detaching interface $ENI from $holder"
        ec2 detach-network-interface --attachment-id "$attachment" >/dev/null 2>"$ERR" ||
          log "detach-network-interface $ENI failed: $(tr '\n' ' ' <"$ERR")"
      fi
      pending+=("interface $ENI (held by $holder)")
    else
      pending+=("interface $ENI ($status)")
    fi
  elif [[ -n $ENI ]]; then
    pending+=("interface $ENI (after the volumes)")
  fi
  if ((${#pending[@]} == 0)); then
    log "attached here ($SELF): ${VOLUMES[*]}${ENI:+ $ENI}"
    exit 0
  fi
  ((SECONDS < deadline)) || die "not attached after waiting ${WAIT}s: ${pending[*]}"
  sleep "${STORAGE_ATTACH_POLL_SECONDS:-5}"
done
