# client-mount.sh's reading of the mount configs: the AWS CLI, installed where missing; the region; the call.
# Part of client-mount.sh, which reads it from beside itself. The SSM document carries its text, less this opening
# comment, in place of the line that reads it: see lib/script-parts.ts.
# shellcheck shell=bash disable=SC2034,SC2154 # client-mount.sh's globals: checked whole, with the script

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
