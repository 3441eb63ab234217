# client-mount.sh's NFS and Lustre clients, installed where missing.
# Part of client-mount.sh, which reads it from beside itself. The SSM document carries its text, less this opening
# comment, in place of the line that reads it: see lib/script-parts.ts.
# shellcheck shell=bash disable=SC2034,SC2154 # client-mount.sh's globals: checked whole, with the script

ensure_nfs_client() {
  PATH=$PATH:/usr/sbin:/sbin command -v mount.nfs4 >/dev/null && return 0
  say "installing the NFS client"
  if command -v dnf >/dev/null; then dnf install -y -q nfs-utils
  elif command -v yum >/dev/null; then yum install -y -q nfs-utils
  elif command -v apt-get >/dev/null; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nfs-common
  else die "no NFS client (mount.nfs4) and no dnf, yum or apt-get to install one"; fi
}

# Installs the Lustre client where mount.lustre is missing; returns 1 (after saying why) when it cannot.
ensure_lustre_client() {
  local pkg
  PATH=$PATH:/usr/sbin:/sbin command -v mount.lustre >/dev/null && return 0
  if command -v dnf >/dev/null; then
    say "installing the Lustre client (dnf: lustre-client)"
    dnf install -y -q lustre-client || { say "'dnf install lustre-client' failed (see above)"; return 1; }
  elif command -v amazon-linux-extras >/dev/null; then
    say "installing the Lustre client (amazon-linux-extras: lustre)"
    amazon-linux-extras install -y lustre || { say "'amazon-linux-extras install lustre' failed (see above)"; return 1; }
  elif command -v apt-get >/dev/null; then
    pkg="lustre-client-modules-$(uname -r)"
    if ! apt-cache show "$pkg" >/dev/null 2>&1; then
      say "no package $pkg: no Lustre client is packaged for the running kernel $(uname -r) in this node's apt sources (AWS's FSx for Lustre client repository has them for the kernels it supports)"
      return 1
    fi
    say "installing the Lustre client (apt-get: $pkg)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" || { say "'apt-get install $pkg' failed (see above)"; return 1; }
  else
    say "no Lustre client (mount.lustre) and no dnf, amazon-linux-extras or apt-get to install one"
    return 1
  fi
  hash -r
  PATH=$PATH:/usr/sbin:/sbin command -v mount.lustre >/dev/null || { say "the Lustre client package is installed, but there is no mount.lustre"; return 1; }
}
