#!/usr/bin/env bash
# Makes sure openapi-typescript, openapi-fetch and TypeScript (pinned here)
# are installed in bin/ for the typed-client test (api
# TestTypeScriptClient: a client generated from the served document must
# type-check under strict tsc without a cast) and prints the path of
# openapi-typescript; tsc is beside it.
set -euo pipefail
exec "$(dirname "$0")/ensure-npm-tool.sh" openapi-ts-7.13.0 openapi-typescript \
  openapi-typescript@7.13.0 openapi-fetch@0.17.0 typescript@5.9.3
