#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster from Debian's packages on a loopback port and prints its URL.
# Used by .ci/run and by developers who want the API suite on a real server:
#   export TEST_DATABASE_URL=$(bash scripts/ci/start-postgres.sh)
set -euo pipefail
PORT="${PG_TEST_PORT:-55432}"
# shellcheck source=scripts/ci/pg-comun.sh
. "$(dirname "$0")/pg-comun.sh"
DIR="${PG_TEST_DIR:-/tmp/portal-pg-$PORT}"
if ! en_marcha "$DIR"; then
  directorio_nuevo "$DIR"
  as_pg "$PGBIN/initdb -D $DIR -A trust -U postgres --no-sync -E UTF8 --locale=C.UTF-8" >/dev/null
  # fsync off: a test cluster trades durability for speed.
  as_pg "$PGBIN/pg_ctl -D $DIR -l $DIR/server.log -w -o \"-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200\" start" >/dev/null
fi
echo "postgres://postgres@127.0.0.1:$PORT/postgres"
