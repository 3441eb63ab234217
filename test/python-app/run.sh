#!/usr/bin/env bash
# The Python CDK app test: builds the Python wheel with jsii-pacmak, `npm run package` (unless given one), installs it with aws-cdk-lib
# into its own venv, .venv-python-app at the repository's root, and runs pytest on test/python-app. Arguments go to
# pytest (`--snapshot-update` rewrites the snapshot). Usage: test/python-app/run.sh [--wheel <file>] [pytest args]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here="$root/test/python-app"
venv="$root/.venv-python-app"
wheel=
if [[ ${1:-} == --wheel ]]; then
  wheel=$2
  shift 2
fi
if [[ -z $wheel ]]; then
  (cd "$root" && npm run package >&2)
  wheel=$(ls "$root"/dist/packages/python/*.whl)
fi
[[ -f $wheel ]] || { echo "run.sh: no wheel at $wheel" >&2; exit 1; }
if [[ ! -x $venv/bin/python ]]; then
  python3 -m venv "$venv" >&2
fi
stamp="$venv/.requirements.sha256"
want=$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)
if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
  echo "$want" >"$stamp"
fi
# The wheel alone, over any earlier build of the same version: its dependencies are the requirements above.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$wheel" >&2
cd "$here"
exec "$venv/bin/python" -m pytest -p no:cacheprovider "$@"
