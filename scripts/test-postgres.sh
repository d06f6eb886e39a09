#!/usr/bin/env bash
# A throwaway PostgreSQL for the team-mode tests: Debian's package, a cluster under $PGROOT
# (default /tmp/smart-context-pg) run as the postgres user on 127.0.0.1:$PGPORT (default 54329),
# with a random password for its superuser (kept in $PGROOT/password, readable by postgres
# only), so other local users of a shared machine cannot log in as it. Idempotent: installs the
# package if missing, creates the cluster once, starts it unless it answers. Prints the URL tests
# read from SMART_CONTEXT_TEST_PG. Leaves /etc, systemd and any cluster on 5432 alone.
set -euo pipefail
PGPORT=${PGPORT:-54329}
PGROOT=${PGROOT:-/tmp/smart-context-pg}
PGDATA="$PGROOT/data"
sudo_if_needed=""
[ "$(id -u)" -eq 0 ] || sudo_if_needed="sudo"

if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  $sudo_if_needed apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_if_needed apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
if [ "$(id -u)" -eq 0 ]; then
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { sudo -u postgres -- "$@"; }
fi
ready() { "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PGPORT" -U postgres; }

$sudo_if_needed install -d -o postgres -g postgres -m 700 "$PGROOT"
if ! as_pg test -s "$PGDATA/PG_VERSION" || ! as_pg test -s "$PGROOT/password"; then
  # None yet, or one from before passwords: made (again).
  as_pg "$BIN/pg_ctl" -D "$PGDATA" stop -m immediate >/dev/null 2>&1 || true
  as_pg rm -rf "$PGDATA"
  # Made by the postgres user itself: never on a command line another user could read.
  as_pg sh -c 'umask 077 && od -An -N16 -tx1 /dev/urandom | tr -d " \n" > "$1"' sh "$PGROOT/password"
  as_pg "$BIN/initdb" -D "$PGDATA" -U postgres --auth-host=scram-sha-256 --auth-local=peer \
    --pwfile="$PGROOT/password" -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
fi
password=$(as_pg cat "$PGROOT/password")
if ! ready; then
  # A postmaster killed a moment ago may leave a pid file naming a process not yet reaped:
  # a failed start is tried again for a few seconds.
  started=
  for _ in $(seq 1 10); do
    if as_pg "$BIN/pg_ctl" -D "$PGDATA" -l "$PGROOT/server.log" -w -t 60 start \
        -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k '$PGROOT' -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        >/dev/null 2>&1; then
      started=1
      break
    fi
    sleep 1
  done
  [ -n "$started" ] || { as_pg tail -n 20 "$PGROOT/server.log" >&2; exit 1; }
fi
for _ in $(seq 1 120); do ready && break; sleep 0.25; done
ready || { echo "PostgreSQL did not come up on 127.0.0.1:$PGPORT" >&2; exit 1; }
echo "postgres://postgres:$password@127.0.0.1:$PGPORT/postgres"
