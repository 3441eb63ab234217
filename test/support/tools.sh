#!/usr/bin/env bash
# Runs a command with the test, lint, documentation and packaging tools of test/package.json on its PATH, installing
# them first (npm ci into test/node_modules) when test/package-lock.json changed since the last install. They live
# apart from the root's packages so that `npm ci` installs only what a synth and a deploy need; everything under test/
# resolves them, and the root's configuration files reach them through test/ (jest.config.js, eslint.config.mjs).
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
[[ ${1:-} == --install ]] && exit 0
export PATH="$tools/node_modules/.bin:$PATH"
exec "$@"
