#!/usr/bin/env bash
# Creates or refreshes the project's Python venv with the tools the tests need: moto, an AWS API emulator, cfn-lint and
# shellcheck. It is idempotent: it only reinstalls when test/requirements.txt changed. Usage: test/support/venv.sh ->
# prints the venv's bin directory on stdout
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv="$root/.venv"
req="$root/test/requirements.txt"
stamp="$venv/.requirements.sha256"
want=$(sha256sum "$req" | cut -d' ' -f1)
exec 9>"$root/.venv.lock"
flock 9
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv" >&2
fi
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req" >&2
  echo "$want" >"$stamp"
fi
echo "$venv/bin"
