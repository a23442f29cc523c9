#!/usr/bin/env bash
# Makes sure PostgreSQL server binaries (initdb, pg_ctl, postgres) exist for
# the embedded database. Installs Debian's postgresql package when run as
# root; otherwise prints one line saying what to install.
# Usage: ensure-postgres.sh VAR — does nothing when the environment variable
# VAR is set (DATABASE_URL for the server, TOWOW_TEST_DATABASE_URL for the
# tests): then no embedded cluster is needed.
set -euo pipefail
var="${1:-DATABASE_URL}"
if [ -n "${!var:-}" ]; then exit 0; fi
have() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1; then
    return 0
  fi
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && return 0
  done
  return 1
}
have && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-postgres: installing Debian's postgresql package for the embedded database" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq postgresql >/dev/null
  have && exit 0
fi
echo "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install them (sudo apt-get install postgresql) or set DATABASE_URL" >&2
exit 1
