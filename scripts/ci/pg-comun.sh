# Sourced by scripts/ci/start-postgres.sh and scripts/replica.sh: Debian's PostgreSQL binaries
# (the newest installed), a command run as the postgres user when this runs as root, and whether a
# cluster already runs in a directory.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$PGBIN" ] || { echo "PostgreSQL no está instalado (apt-get install postgresql)" >&2; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
en_marcha() { as_pg "$PGBIN/pg_ctl -D $1 status" >/dev/null 2>&1; }
# An empty directory the postgres user owns (mode 700, as PostgreSQL wants it).
directorio_nuevo() {
  rm -rf "$1"; mkdir -p "$1"; chmod 700 "$1"
  if [ "$(id -u)" = 0 ]; then chown postgres "$1"; fi
}
