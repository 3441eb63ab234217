#!/usr/bin/env bash
# Builds the e2e test image alone, or finds it cached: npm run test:e2e:image. .ci/run starts it beside
# npm test, as the build is mostly download and unpack, which leaves CPU to the tests. run.sh then takes the
# image lock after it and finds the image built, or builds it itself if this failed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/host.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/host.sh"
ensure_host_packages
build_image
