#!/usr/bin/env bash
# Usage: [BEFORE=REV] bench/append-compare.sh URL [SECONDS]
#
# Appends to ToWow's event store and to message-db (the reference
# PostgreSQL message store, @eventide/message-db 1.3.1, pinned, installed
# from npm into bin/ once), side by side on the same PostgreSQL server, with
# pgbench at 1, 4 and 16 clients for SECONDS each (default 10):
#
#   towow      towow_append: one event per commit, each client on its own stream
#   mdb-1cat   message-db write_message: the same, every stream in one category
#   mdb-4cat   the same, the streams spread over four categories
#   ...-x100   100 events per commit (towow_append with 100 events; message-db:
#              100 write_message calls in one transaction)
#
#   before     with BEFORE set (a git revision): towow_append as that revision
#   before-x100  migrated it, in a third database, for a before/after in one run
#
# It prints commits/s and events/s per row, and ToWow's ratio to message-db
# (and to the revision before).
# URL names a server whose role may create databases and roles (message-db
# installs a role message_store); two scratch databases are created and
# dropped. Needs psql and pgbench (Debian's postgresql-client) and npm.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bench/append-compare.sh URL [SECONDS]" >&2
  exit 2
fi
url=$1 seconds=${2:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
for tool in psql pgbench createdb; do
  command -v "$tool" >/dev/null || { echo "append-compare: $tool not found (sudo apt-get install postgresql-client)" >&2; exit 1; }
done
# The server's address for the tools that read PG* variables (message-db's scripts).
re='^postgres(ql)?://([^:@/]+)(:([^@]*))?@([^:/?]+)(:([0-9]+))?/([^?]*)'
if [[ ! $url =~ $re ]]; then
  echo "append-compare: URL must look like postgres://user[:password]@host[:port]/database" >&2
  exit 2
fi
export PGUSER=${BASH_REMATCH[2]} PGPASSWORD=${BASH_REMATCH[4]} PGHOST=${BASH_REMATCH[5]} PGPORT=${BASH_REMATCH[7]:-5432}
base="postgres://$PGUSER@$PGHOST:$PGPORT"
export PGOPTIONS='-c client_min_messages=warning'

mdb="$root/bin/message-db-1.3.1/node_modules/@eventide/message-db/database"
if [ ! -x "$mdb/install.sh" ]; then
  "$root/scripts/ensure-npm-tool.sh" message-db-1.3.1 . "@eventide/message-db@1.3.1" >/dev/null 2>&1 || true
  [ -x "$mdb/install.sh" ] || { echo "append-compare: cannot install @eventide/message-db@1.3.1 from npm" >&2; exit 1; }
fi

suffix=$$
towow_db=towow_append_bench_$suffix mdb_db=message_store_bench_$suffix
before_db=towow_before_bench_$suffix
cleanup() {
  dropdb --if-exists "$towow_db" 2>/dev/null || true
  dropdb --if-exists "$mdb_db" 2>/dev/null || true
  dropdb --if-exists "$before_db" 2>/dev/null || true
}
trap cleanup EXIT
createdb "$towow_db"
createdb "$mdb_db"
(cd "$root" && go build -o bin/towow ./cmd/towow)
DATABASE_URL="$base/$towow_db" "$root/bin/towow" migrate up >/dev/null 2>&1
DATABASE_NAME=$mdb_db CREATE_DATABASE=off bash "$mdb/install.sh" >/dev/null
rows="towow mdb-1cat mdb-4cat towow-x100 mdb-4cat-x100"
if [ -n "${BEFORE:-}" ]; then
  src=$(mktemp -d)
  git -C "$root" archive "$BEFORE" | tar -x -C "$src"
  (cd "$src" && go build -o "$root/bin/towow-before" ./cmd/towow)
  rm -rf "$src"
  createdb "$before_db"
  DATABASE_URL="$base/$before_db" "$root/bin/towow-before" migrate up >/dev/null 2>&1
  rows="before towow mdb-1cat mdb-4cat before-x100 towow-x100 mdb-4cat-x100"
fi

scripts=$(mktemp -d)
trap 'cleanup; rm -rf "$scripts"' EXIT
cat >"$scripts/towow.sql" <<'SQL'
SELECT outcome FROM towow_append('bench-' || :client_id, -1, ARRAY[gen_random_uuid()], ARRAY['towow.bench.appended'],
  ARRAY['{"n":1}'::jsonb], ARRAY['{}'::jsonb]) LIMIT 1;
SQL
cat >"$scripts/towow-x100.sql" <<'SQL'
SELECT outcome FROM towow_append('bench-' || :client_id, -1, (SELECT array_agg(gen_random_uuid()) FROM generate_series(1, 100)),
  array_fill('towow.bench.appended'::text, ARRAY[100]), array_fill('{"n":1}'::jsonb, ARRAY[100]),
  array_fill('{}'::jsonb, ARRAY[100])) LIMIT 1;
SQL
cat >"$scripts/mdb-1cat.sql" <<'SQL'
SELECT message_store.write_message(gen_random_uuid()::varchar, 'bench-' || :client_id, 'Appended', '{"n":1}'::jsonb, '{}'::jsonb);
SQL
cat >"$scripts/mdb-4cat.sql" <<'SQL'
SELECT message_store.write_message(gen_random_uuid()::varchar, 'bench' || (:client_id % 4) || '-' || :client_id, 'Appended',
  '{"n":1}'::jsonb, '{}'::jsonb);
SQL
cat >"$scripts/mdb-4cat-x100.sql" <<'SQL'
BEGIN;
SELECT count(message_store.write_message(gen_random_uuid()::varchar, 'bench' || (:client_id % 4) || '-' || :client_id, 'Appended',
  '{"n":1}'::jsonb, '{}'::jsonb)) FROM generate_series(1, 100);
COMMIT;
SQL

# tps runs one pgbench and prints its commits per second.
# message-db's functions call each other unqualified: its sessions run with
# message_store first on the search path, as its role's settings say.
tps() {
  local db=$1 script=$2 clients=$3 options=$PGOPTIONS
  [ "$db" = "$mdb_db" ] && options="$options -c search_path=message_store,public"
  PGOPTIONS=$options pgbench -n -M prepared -c "$clients" -j "$clients" -T "$seconds" -f "$scripts/${script/before/towow}.sql" "$db" |
    awk '/^tps = / {printf "%.0f", $3}'
}

printf '%-14s %8s %12s %12s %10s\n' "store" clients "commits/s" "events/s" "towow ÷ it"
for clients in 1 4 16; do
  declare -A got=()
  for row in $rows; do
    db=$mdb_db
    [[ $row == towow* ]] && db=$towow_db
    [[ $row == before* ]] && db=$before_db
    got[$row]=$(tps "$db" "$row" "$clients")
  done
  for row in $rows; do
    events=${got[$row]}
    [[ $row == *-x100 ]] && events=$((got[$row] * 100))
    ratio=""
    case $row in
      before) ratio=$(awk -v a="${got[towow]}" -v b="${got[$row]}" 'BEGIN { if (b > 0) printf "%.2f×", a / b }') ;;
      before-x100) ratio=$(awk -v a="${got[towow-x100]}" -v b="${got[$row]}" 'BEGIN { if (b > 0) printf "%.2f×", a / b }') ;;
      mdb-1cat | mdb-4cat) ratio=$(awk -v a="${got[towow]}" -v b="${got[$row]}" 'BEGIN { if (b > 0) printf "%.2f×", a / b }') ;;
      mdb-4cat-x100) ratio=$(awk -v a="${got[towow-x100]}" -v b="${got[$row]}" 'BEGIN { if (b > 0) printf "%.2f×", a / b }') ;;
    esac
    printf '%-14s %8d %12s %12s %10s\n' "$row" "$clients" "${got[$row]}" "$events" "$ratio"
  done
  unset got
done
