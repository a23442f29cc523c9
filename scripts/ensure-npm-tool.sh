#!/usr/bin/env bash
# Usage: ensure-npm-tool.sh DIR BIN PACKAGE@VERSION [PACKAGE@VERSION ...]
# Makes sure the pinned npm packages are installed in bin/DIR (once; later
# calls find them there) and prints the path of their executable BIN. The
# tests that run third-party clients against ToWow (the OpenAPI lint, the
# generated TypeScript client, the MCP Inspector) find their tools with it.
# Installs Debian's npm first when it is missing and this runs as root.
# Fails when it cannot.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: ensure-npm-tool.sh DIR BIN PACKAGE@VERSION..." >&2
  exit 2
fi
dir=$1 bin=$2
shift 2
cd "$(dirname "$0")/.."
tool="$PWD/bin/$dir/node_modules/.bin/$bin"
if [ ! -x "$tool" ]; then
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-npm-tool: installing Debian's npm for $*" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq npm >/dev/null
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "ensure-npm-tool: npm not found: install it (sudo apt-get install npm) for $*" >&2
    exit 1
  fi
  echo "ensure-npm-tool: installing $* into bin/$dir" >&2
  rm -rf "bin/$dir.tmp"
  npm install --no-audit --no-fund --loglevel=error --prefix "bin/$dir.tmp" "$@" >/dev/null
  rm -rf "bin/$dir"
  mv "bin/$dir.tmp" "bin/$dir"
fi
echo "$tool"
