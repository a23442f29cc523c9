#!/usr/bin/env bash
# Makes sure Redocly's CLI (pinned here) is installed in bin/ for the
# OpenAPI lint test (api TestOpenAPILint: the published document must pass
# Redocly's recommended ruleset with 0 errors and 0 warnings) and prints its
# path.
set -euo pipefail
version=2.77.0
exec "$(dirname "$0")/ensure-npm-tool.sh" "redocly-$version" redocly "@redocly/cli@$version"
