#!/usr/bin/env bash
# The peer of the nearest-10 targets: PostGIS geography KNN
# (`ORDER BY geog <-> point LIMIT 10` over a GiST index) under pgbench, from
# points uniform over the globe (latitude from the arcsine of a uniform sine,
# as the server benchmark's wrk script draws them), 1 and 32 clients.
#
#   Benchmarks/scripts/postgis-knn.sh [places.csv] [seconds]
#
# Starts its own PostgreSQL 15 cluster (pg-cluster.sh), loads the same
# places, and stops and removes it on exit. Needs postgresql-15 and
# postgresql-15-postgis-3 (Debian).
# Prints `clients N: X q/s` lines.
set -euo pipefail
csv="$(realpath "${1:-../shared/data/geonames-places.csv}")"
seconds="${2:-10}"
[ -f "$csv" ] || { echo "postgis-knn: no places file at $csv" >&2; exit 1; }
source "$(dirname "$0")/pg-cluster.sh"

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
