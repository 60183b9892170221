# Sourced by the PostgreSQL benchmarks: starts a throwaway PostgreSQL 15
# cluster in a temporary folder, on a Unix socket only, and stops and
# removes it when the script exits. PostgreSQL refuses to run as root: as
# root, the cluster runs as `postgres`. Sets `folder` (the socket's
# directory too), `bin` and `psql` (psql on database `postgres`, as user
# `bench`, stopping at the first error).
bin=/usr/lib/postgresql/15/bin
[ -x "$bin/initdb" ] || { echo "$0: PostgreSQL 15 is not installed (apt-get install postgresql-15 postgresql-15-postgis-3)" >&2; exit 1; }
folder="$(mktemp -d /tmp/carousel-pg-bench.XXXXXX)"
as=()
if [ "$(id -u)" = 0 ]; then
    chown postgres "$folder"
    as=(runuser -u postgres --)
fi
stop_cluster() {
    "${as[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop_cluster EXIT
"${as[@]}" "$bin/initdb" -D "$folder/data" -A trust -U bench >/dev/null
"${as[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w \
    -o "-c listen_addresses='' -c unix_socket_directories='$folder' -c max_connections=64 -c shared_buffers=256MB -c fsync=off" \
    start >/dev/null
psql=(psql -X -q -h "$folder" -U bench -d postgres -v ON_ERROR_STOP=1)
