#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster:
#
#   scripts/ci-postgres.sh npm test            # the whole suite on PostgreSQL
#   scripts/ci-postgres.sh npm test -- inventory
#
# The cluster lives in a fresh temporary directory on a free loopback port, with trust authentication
# and fsync off (it holds nothing worth keeping). The command sees
# TEST_DATABASE_URL=postgres://postgres@127.0.0.1:<port>/postgres. The cluster is stopped and its
# directory removed when the command ends, fails, or the script is interrupted.
#
# PostgreSQL comes from the Debian packages; they are installed when missing (needs root or sudo).
# As root the server runs as the `postgres` user (PostgreSQL refuses to run as root); otherwise as the
# current user.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 64
fi

log() { printf '[ci-postgres] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root (or sudo) to run: $*"
    return 1
  fi
}

pg_bin_dir() {
  # The newest installed major version.
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

if [ -z "$(pg_bin_dir)" ] || [ ! -x "$(pg_bin_dir)/initdb" ]; then
  log "PostgreSQL is not installed: installing the Debian packages"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
BIN="$(pg_bin_dir)"
log "using $("$BIN/postgres" --version)"

# Run PostgreSQL tools as `postgres` when we are root.
if [ "$(id -u)" -eq 0 ]; then
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

DIR="$(mktemp -d "${TMPDIR:-/tmp}/ci-pg.XXXXXX")"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$DIR"
STARTED=0

cleanup() {
  local status=$?
  if [ "$STARTED" -eq 1 ]; then
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 || log "could not stop the cluster in $DIR"
  fi
  rm -rf "$DIR"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

as_pg "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust --no-sync >"$DIR/initdb.log" 2>&1 || {
  cat "$DIR/initdb.log" >&2
  exit 1
}

# Another process may take the port between picking and binding it: try a few.
for attempt in 1 2 3 4 5; do
  PORT="$(free_port)"
  if as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 start \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    >/dev/null; then
    STARTED=1
    break
  fi
  log "start on port $PORT failed (attempt $attempt):"
  tail -n 5 "$DIR/server.log" >&2 || true
done
if [ "$STARTED" -ne 1 ]; then
  log "could not start PostgreSQL"
  exit 1
fi

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
log "cluster ready at $TEST_DATABASE_URL (data in $DIR)"

# Not exec: the trap must still run when the command ends.
set +e
"$@"
status=$?
set -e
if [ "$status" -ne 0 ]; then
  log "command failed ($status); last lines of the PostgreSQL log:"
  tail -n 20 "$DIR/server.log" >&2 || true
fi
exit "$status"
