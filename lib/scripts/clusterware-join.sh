#!/usr/bin/env bash
# Joins this node to an Alces Flight clusterware ring as a slave: writes /opt/clusterware/etc/config.yml
# (cluster uuid, token, name, role slave, master IP), which clusterware reads at start-up to join the
# master's gossip ring (serf, TCP and UDP 7946).
#
# The token is read here, at boot, from Secrets Manager with the instance role: it never appears in user
# data, the CloudFormation template, the command line or the log. The secret's value is the token itself
# (a plain string, e.g. `openssl rand -base64 20` on the master).
#
# Usage: clusterware-join.sh --secret-id ARN --cluster NAME --master IPV4 --uuid UUID [--region REGION]
#                            [--config FILE]
set -euo pipefail

secret_id='' cluster='' master='' uuid='' region='' config=/opt/clusterware/etc/config.yml

die() {
  printf 'clusterware-join: ERROR %s\n' "$*" >&2
  exit 1
}

while (($#)); do
  case $1 in
    --secret-id) secret_id=${2:-} && shift ;;
    --cluster) cluster=${2:-} && shift ;;
    --master) master=${2:-} && shift ;;
    --uuid) uuid=${2:-} && shift ;;
    --region) region=${2:-} && shift ;;
    --config) config=${2:-} && shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done

[[ -n $secret_id ]] || die "--secret-id is required (the ARN of the secret holding the cluster token)"
[[ $cluster =~ ^[A-Za-z0-9_.-]{1,64}$ ]] || die "--cluster must be 1-64 characters of A-Z a-z 0-9 _ . -, got '$cluster'"
[[ $master =~ ^([0-9]{1,3}\.){3}[0-9]{1,3}$ ]] || die "--master must be the master's IPv4 address, got '$master'"
[[ $uuid =~ ^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$ ]] ||
  die "--uuid must be a lower-case UUID, got '$uuid'"
command -v aws >/dev/null || die "the AWS CLI is needed to read the token from Secrets Manager"

args=(secretsmanager get-secret-value --secret-id "$secret_id" --query SecretString --output text)
[[ -z $region ]] || args+=(--region "$region")
token=$(AWS_PAGER='' aws "${args[@]}") || die "cannot read the cluster token from $secret_id (see above)"
# A YAML single-quoted scalar holds anything but line breaks; a quote is written twice.
[[ -n $token && $token != *[[:cntrl:]]* ]] || die "the secret $secret_id must hold the token as one line of text"
token=${token//\'/\'\'}

umask 077
mkdir -p "$(dirname "$config")"
tmp=$(mktemp "$(dirname "$config")/.config.yml.XXXXXX")
trap 'rm -f "$tmp"' EXIT
cat >"$tmp" <<EOF
# Written by the StorageServer clusterware join at boot; the token comes from Secrets Manager.
cluster:
  uuid: '$uuid'
  token: '$token'
  name: '$cluster'
  role: 'slave'
  master: '$master'
EOF
chmod 0600 "$tmp"
[[ $(id -u) -ne 0 ]] || chown root:root "$tmp"
mv -f "$tmp" "$config"
trap - EXIT
printf 'clusterware-join: wrote %s (cluster %s, role slave, master %s)\n' "$config" "$cluster" "$master"
