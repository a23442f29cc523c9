#!/usr/bin/env bash
# Makes sure Redocly's CLI (pinned) exists in bin/ for the OpenAPI lint test
# (api TestOpenAPILint: the published document must pass Redocly's
# recommended ruleset with 0 errors). Installs it from the npm registry once
# (cached in bin/redocly-VERSION); installs Debian's npm first when missing
# and run as root. Without it the test skips outside CI and fails in CI.
set -euo pipefail
version="$1"
dir="bin/redocly-$version"
[ -x "$dir/node_modules/.bin/redocly" ] && exit 0
if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-redocly: installing Debian's npm for the OpenAPI lint" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq npm >/dev/null
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "npm not found: install it (sudo apt-get install npm) for the OpenAPI lint test" >&2
  exit 0
fi
echo "ensure-redocly: installing @redocly/cli@$version into $dir" >&2
npm install --no-audit --no-fund --loglevel=error --prefix "$dir" "@redocly/cli@$version" >/dev/null
