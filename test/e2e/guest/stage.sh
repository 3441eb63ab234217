#!/bin/bash
# Runs inside a test VM (from the read-only control disk, called by the image's e2e-boot.sh): loads the
# helpers and the role's stages, then runs the stage named on the kernel command line.
# Usage: stage.sh <server|client> <stage>
set -u
ROLE=$1 STAGE=$2
GUEST=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CTL=${GUEST%/guest} # read by the stages
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$GUEST/common.sh"
# shellcheck source=/dev/null
. "$GUEST/$ROLE.sh"
fn="${ROLE}_${STAGE//-/_}"
declare -F "$fn" >/dev/null || { echo "E2E FAIL $STAGE: no stage $fn"; exit 2; }
"$fn"
