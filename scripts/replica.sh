#!/usr/bin/env bash
# Starts a read replica of a PostgreSQL cluster on this machine, by streaming replication
# (pg_basebackup -R: a standby that follows the primary's WAL), and prints its URL for
# DATABASE_READ_URL (docs/escala.md). Loopback only. The primary must accept replication connections
# from 127.0.0.1 (the clusters of scripts/ci/start-postgres.sh do: initdb -A trust).
#   PRIMARIO_PORT=55432 REPLICA_PORT=55442 bash scripts/replica.sh
#   DATABASE_URL=postgres://postgres@127.0.0.1:55432/portal \
#   DATABASE_READ_URL=postgres://postgres@127.0.0.1:55442/portal npm start
# Stop it with: pg_ctl -D "$REPLICA_DIR" stop (as the postgres user when run as root).
set -euo pipefail
PRIMARIO_PORT="${PRIMARIO_PORT:-55432}"
PORT="${REPLICA_PORT:-55442}"
# shellcheck source=scripts/ci/pg-comun.sh
. "$(dirname "$0")/ci/pg-comun.sh"
DIR="${REPLICA_DIR:-/tmp/portal-pg-replica-$PORT}"
if ! en_marcha "$DIR"; then
  directorio_nuevo "$DIR"
  # A copy of the primary as it is now, with standby.signal and primary_conninfo written (-R), and
  # the WAL written meanwhile streamed alongside (-X stream), so it starts consistent.
  as_pg "$PGBIN/pg_basebackup -h 127.0.0.1 -p $PRIMARIO_PORT -U postgres -D $DIR -R -X stream --no-sync" >&2
  as_pg "$PGBIN/pg_ctl -D $DIR -l $DIR/server.log -w -o \"-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c hot_standby=on -c max_connections=200\" start" >/dev/null
fi
# A standby answers true; the primary's name for it shows it streaming.
[ "$(as_pg "$PGBIN/psql -h 127.0.0.1 -p $PORT -U postgres -Atc 'select pg_is_in_recovery()'")" = t ] || { echo "La réplica no está en recuperación" >&2; exit 1; }
echo "postgres://postgres@127.0.0.1:$PORT"
