#!/bin/sh
# The part of the official image's entrypoint compose.yaml relies on: on an empty PGDATA, create the
# cluster with POSTGRES_USER / POSTGRES_PASSWORD (password auth from other hosts) and POSTGRES_DB,
# then run the server as the postgres user, listening on every interface. Other commands run as given.
set -eu
[ "${1:-}" = postgres ] || exec "$@"
shift
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
mkdir -p "$PGDATA" /run/postgresql
chown -R postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
as_postgres() { su postgres -s /bin/sh -c "$*"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s' "$POSTGRES_PASSWORD" >/tmp/pwfile
  chown postgres /tmp/pwfile
  as_postgres "initdb -D '$PGDATA' -U '$POSTGRES_USER' --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256" >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    as_postgres "pg_ctl -D '$PGDATA' -o '-c listen_addresses=' -w start" >/dev/null
    as_postgres "psql -v ON_ERROR_STOP=1 -U '$POSTGRES_USER' -d postgres -c 'CREATE DATABASE \"$POSTGRES_DB\"'" >/dev/null
    as_postgres "pg_ctl -D '$PGDATA' -m fast -w stop" >/dev/null
  fi
fi
exec su postgres -s /bin/sh -c "exec postgres -D '$PGDATA' -c listen_addresses='*' $*"
