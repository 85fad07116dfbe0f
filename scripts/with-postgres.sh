#!/usr/bin/env bash
# Runs a command against a private PostgreSQL cluster, then stops the cluster and removes it.
#
#   scripts/with-postgres.sh swift test --filter SteppiePostgresTests
#   scripts/with-postgres.sh scripts/with-pulse.sh swift test ...     (scripts/test.sh's first phase)
#
# The cluster lives in a temporary folder: initdb there, no TCP port (`listen_addresses=''`), its
# Unix socket in the same folder, started with Debian's pg_ctl (/usr/lib/postgresql/15/bin, or
# STEPPIE_PG_BIN). PostgreSQL refuses to run as root, so as root the folder belongs to the
# `postgres` user and every server command runs through `runuser -u postgres --`.
#
# The command gets:
#   STEPPIE_TEST_POSTGRES        a libpq connection string: host=FOLDER dbname=steppie_test user=...
#   STEPPIE_TEST_POSTGRES_DATA   the cluster's data folder
#   STEPPIE_TEST_POSTGRES_PGCTL  a script running pg_ctl on that cluster as the right user, with
#                                its log file set (`$STEPPIE_TEST_POSTGRES_PGCTL restart -m fast -w`)
# STEPPIE_POSTGRES_CONF, when set, is appended to the cluster's postgresql.conf (for a profile:
# STEPPIE_POSTGRES_CONF="shared_preload_libraries = 'pg_stat_statements'").
# The cluster is stopped (fast, then immediate, then its postmaster killed by PID) and the folder
# removed on every exit path; the exit status is the command's.
set -u

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG...]" >&2
    exit 64
fi
PG_BIN=${STEPPIE_PG_BIN:-/usr/lib/postgresql/15/bin}
for tool in initdb pg_ctl postgres createdb psql; do
    if [ ! -x "$PG_BIN/$tool" ]; then
        echo "with-postgres: $PG_BIN/$tool is missing (apt-get install postgresql, or set STEPPIE_PG_BIN)" >&2
        exit 69
    fi
done

PG_BASE=$(mktemp -d "${TMPDIR:-/tmp}/steppie-postgres.XXXXXX")
PG_DATA="$PG_BASE/data"
PG_LOG="$PG_BASE/postgres.log"
PG_CTL="$PG_BASE/pg_ctl.sh"
STARTED=no

# As root: PostgreSQL runs as `postgres`, which owns the folder (the command still runs as root).
AS=()
PG_USER=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
    if ! id -u postgres >/dev/null 2>&1; then
        echo "with-postgres: running as root needs the postgres user (apt-get install postgresql)" >&2
        rm -rf "$PG_BASE"
        exit 69
    fi
    AS=(runuser -u postgres --)
    PG_USER=postgres
    chown postgres: "$PG_BASE"
fi
chmod 0700 "$PG_BASE"

cleanup() {
    if [ "$STARTED" = yes ]; then
        "$PG_CTL" stop -m fast -w -t 20 >/dev/null 2>&1 || "$PG_CTL" stop -m immediate -w -t 10 >/dev/null 2>&1
        # Last resort: the postmaster by the PID in its own file (never by name).
        if [ -f "$PG_DATA/postmaster.pid" ]; then
            pid=$(head -n 1 "$PG_DATA/postmaster.pid" 2>/dev/null)
            if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
                kill -KILL "$pid" 2>/dev/null
                for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
            fi
        fi
    fi
    rm -rf "$PG_BASE"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# pg_ctl on this cluster as the right user, its log set, for the cleanup and for the tests.
{
    echo '#!/usr/bin/env bash'
    printf 'exec'
    printf ' %q' "${AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG"
    printf ' "$@"\n'
} > "$PG_CTL"
chmod 0755 "$PG_CTL"

if ! "${AS[@]}" "$PG_BIN/initdb" -D "$PG_DATA" -U "$PG_USER" --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
        --no-sync >"$PG_BASE/initdb.log" 2>&1; then
    echo "with-postgres: initdb failed; its output:" >&2
    cat "$PG_BASE/initdb.log" >&2
    exit 69
fi
# Unix socket only, in the folder; small and quick for tests (nothing here must survive a crash).
cat >> "$PG_DATA/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$PG_BASE'
max_connections = 40
shared_buffers = 32MB
fsync = off
synchronous_commit = off
full_page_writes = off
${STEPPIE_POSTGRES_CONF:-}
EOF

STARTED=yes
if ! "$PG_CTL" start -w -t 30 >/dev/null 2>&1; then
    echo "with-postgres: PostgreSQL did not start; its log:" >&2
    cat "$PG_LOG" >&2 2>/dev/null
    exit 69
fi
if ! "${AS[@]}" "$PG_BIN/createdb" -h "$PG_BASE" -U "$PG_USER" steppie_test 2>"$PG_BASE/createdb.log"; then
    echo "with-postgres: createdb failed:" >&2
    cat "$PG_BASE/createdb.log" >&2
    exit 69
fi

export STEPPIE_TEST_POSTGRES="host=$PG_BASE dbname=steppie_test user=$PG_USER"
export STEPPIE_TEST_POSTGRES_DATA="$PG_DATA"
export STEPPIE_TEST_POSTGRES_PGCTL="$PG_CTL"

"$@"
status=$?
exit "$status"
