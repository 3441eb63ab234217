#!/usr/bin/env bash
# `npm test`: the type check and the lint run beside jest, not before it. Jest's two workers leave a core idle while
# they wait on child processes and timeouts, and tsc, which takes about 10 s of one core, fills it. The arguments go to
# jest. It fails when any of the three fails, and says which.
set -u
cd "$(dirname "$0")/../.."
npm run --silent typecheck &
typecheck=$!
npm run --silent lint &
lint=$!
jest "$@"
status=$?
wait "$typecheck" || { echo 'npm test: npm run typecheck failed (its errors are above)' >&2; status=1; }
wait "$lint" || { echo 'npm test: npm run lint failed (its findings are above)' >&2; status=1; }
exit "$status"
