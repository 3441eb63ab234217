#!/bin/bash
# Runs inside a test VM from the read-only control disk, called by the image's e2e-boot.sh. It loads the
# helpers and the role's stages, then runs the stages named on the kernel command line, in turn.
# Usage: stage.sh <server|client> <stage[,stage...]>
# The run's one client VM is given every stage of the run: it stays up while server VMs come and go, and
# ends each stage with its own STAGE-END line; the image prints one for the whole list.
set -u
ROLE=$1 STAGES=$2 STAGE=${2%%,*}
GUEST=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CTL=${GUEST%/guest} # read by the stages
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$GUEST/common.sh"
# shellcheck source=/dev/null
. "$GUEST/$ROLE.sh"
rc=0
for STAGE in ${STAGES//,/ }; do
  SCEN=$STAGE
  fn="${ROLE}_${STAGE//-/_}"
  if declare -F "$fn" >/dev/null; then
    "$fn"
    r=$?
  else
    echo "E2E FAIL $STAGE: no stage $fn"
    r=2
  fi
  [[ $STAGES != *,* ]] || echo "E2E STAGE-END role=$ROLE stage=$STAGE rc=$r"
  ((r == 0)) || rc=$r
done
exit "$rc"
