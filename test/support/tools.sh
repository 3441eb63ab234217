#!/usr/bin/env bash
# Runs a command with the test, lint, documentation and packaging tools of test/package.json on its PATH, installing
# them first (npm ci into test/node_modules) when test/package-lock.json changed since the last install. They live
# apart from the root's packages so that `npm ci` installs only what a synth and a deploy need; everything under test/
# resolves them, and the root's configuration files reach them through test/ (jest.config.js, eslint.config.mjs). It
# installs the few host packages the tests run as well.
#   bash test/support/tools.sh <command> [args...]
#   bash test/support/tools.sh --install     # install only
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tools="$root/test"
stamp="$tools/node_modules/.storage-server-tools.sha256"
want=$(sha256sum "$tools/package-lock.json" | cut -d' ' -f1)
if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
  # One install at a time: npm test starts the type check, the lint and jest together.
  exec 9>"$tools/.tools-install.lock"
  flock 9
  if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
    echo "test tools: npm ci in test/ (test/package-lock.json changed or never installed)" >&2
    (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error >&2)
    echo "$want" >"$stamp"
  fi
  exec 9>&-
fi
# Host commands the tests run for real (the copy script's rsync, setfacl and setfattr, test/unit/copy-document.test.ts),
# as Debian packages, installed when missing, as the e2e harness installs its own.
missing=()
for cmd in rsync:rsync setfacl:acl setfattr:attr; do
  command -v "${cmd%%:*}" >/dev/null || missing+=("${cmd#*:}")
done
if ((${#missing[@]})); then
  [[ $(id -u) -eq 0 ]] || { echo "test tools: missing host packages (${missing[*]}): install them, or run as root" >&2; exit 1; }
  # Under the install lock: npm test starts three of these at once, and apt takes one at a time.
  exec 9>"$tools/.tools-install.lock"
  flock 9
  echo "test tools: installing host packages: ${missing[*]}" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  exec 9>&-
fi
[[ ${1:-} == --install ]] && exit 0
export PATH="$tools/node_modules/.bin:$PATH"
exec "$@"
