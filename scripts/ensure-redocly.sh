#!/usr/bin/env bash
# Makes sure Redocly's CLI (pinned below) exists in bin/ for the OpenAPI lint
# test (api TestOpenAPILint: the published document must pass Redocly's
# recommended ruleset with 0 errors), and prints its path. Installs it from
# the npm registry once (cached in bin/redocly-VERSION); installs Debian's
# npm first when missing and run as root. Fails when it cannot.
set -euo pipefail
version=2.77.0
cd "$(dirname "$0")/.."
tool="$PWD/bin/redocly-$version/node_modules/.bin/redocly"
if [ ! -x "$tool" ]; then
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-redocly: installing Debian's npm for the OpenAPI lint" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq npm >/dev/null
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "ensure-redocly: npm not found: install it (sudo apt-get install npm) for the OpenAPI lint" >&2
    exit 1
  fi
  echo "ensure-redocly: installing @redocly/cli@$version into bin/redocly-$version" >&2
  npm install --no-audit --no-fund --loglevel=error --prefix "bin/redocly-$version" "@redocly/cli@$version" >/dev/null
fi
echo "$tool"
