#!/usr/bin/env bash
# The peer of the nearest-10 targets: PostGIS geography KNN
# (`ORDER BY geog <-> point LIMIT 10` over a GiST index) under pgbench, from
# points uniform over the globe (latitude from the arcsine of a uniform sine,
# as the server benchmark's wrk script draws them), 1 and 32 clients.
#
#   Benchmarks/scripts/postgis-knn.sh [places.csv] [seconds]
#
# Starts its own PostgreSQL 15 cluster in a temporary folder, listening on a
# Unix socket only, loads the same places, and stops and removes it on exit.
# Needs postgresql-15 and postgresql-15-postgis-3 (Debian). PostgreSQL
# refuses to run as root: as root, the cluster runs as `postgres`.
# Prints `clients N: X q/s` lines.
set -euo pipefail
csv="$(realpath "${1:-../shared/data/geonames-places.csv}")"
seconds="${2:-10}"
bin=/usr/lib/postgresql/15/bin
[ -x "$bin/initdb" ] || { echo "postgis-knn: PostgreSQL 15 is not installed (apt-get install postgresql-15 postgresql-15-postgis-3)" >&2; exit 1; }
[ -f "$csv" ] || { echo "postgis-knn: no places file at $csv" >&2; exit 1; }

folder="$(mktemp -d /tmp/postgis-knn.XXXXXX)"
as=()
if [ "$(id -u)" = 0 ]; then
    chown postgres "$folder"
    as=(runuser -u postgres --)
fi
stop() {
    "${as[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT

"${as[@]}" "$bin/initdb" -D "$folder/data" -A trust -U bench >/dev/null
"${as[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w \
    -o "-c listen_addresses='' -c unix_socket_directories='$folder' -c max_connections=64 -c shared_buffers=256MB -c fsync=off" \
    start >/dev/null
psql=(psql -q -h "$folder" -U bench -d postgres -v ON_ERROR_STOP=1)

"${psql[@]}" <<SQL
CREATE EXTENSION postgis;
CREATE TABLE places (id text, name text, latitude double precision, longitude double precision, country text, population bigint);
\copy places FROM '$csv' WITH (FORMAT csv, HEADER true)
ALTER TABLE places ADD COLUMN geog geography(Point, 4326);
UPDATE places SET geog = ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography;
CREATE INDEX places_geog ON places USING gist (geog);
VACUUM ANALYZE places;
SQL

# pgbench's random() is uniform; asin(2u - 1) makes the latitude uniform over the sphere.
cat > "$folder/knn.sql" <<'SQL'
\set u random(0, 1000000)
\set v random(0, 1000000)
SELECT id, ST_Distance(geog, q) FROM places,
    (SELECT ST_SetSRID(ST_MakePoint(:v * 0.00036 - 180, degrees(asin(:u * 0.000002 - 1))), 4326)::geography AS q) AS p
ORDER BY geog <-> q LIMIT 10;
SQL
chmod a+r "$folder/knn.sql"
echo "places: $("${psql[@]}" -tAc 'SELECT count(*) FROM places')"
for clients in 1 32; do
    rate="$(pgbench -n -h "$folder" -U bench -c "$clients" -j "$(( clients < 2 ? 1 : 2 ))" -T "$seconds" -f "$folder/knn.sql" postgres \
        | sed -n 's/^tps = \([0-9.]*\).*/\1/p')"
    echo "clients $clients: $rate q/s"
done
