#!/usr/bin/env bash
# The peer of the tile rows: PostGIS `ST_AsMVT(ST_AsMVTGeom(…))` over the
# same places, as a tile server on PostGIS (pg_tileserv, Martin) asks it,
# under pgbench at 1 and 32 clients, drawing from the same tile addresses
# as the tiles benchmark's wrk runs.
#
#   Benchmarks/scripts/postgis-tiles.sh places.csv seconds MIX=ADDRESSES...
#
# Each ADDRESSES file holds one `z/x/y` a line (TileBenchmark.swift writes
# them). The places become EPSG:3857 points under a GiST index (latitudes
# clamped to ±85.0511°, where Web Mercator ends, as every web map does);
# each tile holds the points within its envelope widened by the buffer our
# tiles use (supercluster's radius, 40 of 512, so 320 of 4096), with the
# list position (the CSV's row order) as the feature id and id and name as
# properties. PostGIS has no clustering: at zoom 2 a tile carries every
# point under it, which is what a user of it gets.
#
# Starts its own PostgreSQL 15 cluster (pg-cluster.sh) and removes it on
# exit. Prints `MIX clients N: X tiles/s` lines.
set -euo pipefail
csv="$(realpath "${1:?usage: postgis-tiles.sh places.csv seconds MIX=ADDRESSES...}")"
seconds="${2:?usage: postgis-tiles.sh places.csv seconds MIX=ADDRESSES...}"
shift 2
[ -f "$csv" ] || { echo "postgis-tiles: no places file at $csv" >&2; exit 1; }
[ $# -gt 0 ] || { echo "postgis-tiles: no MIX=ADDRESSES given" >&2; exit 64; }
source "$(dirname "$0")/pg-cluster.sh"

"${psql[@]}" <<SQL
CREATE EXTENSION postgis;
CREATE TABLE places (id text, name text, latitude double precision, longitude double precision, country text, population bigint);
\copy places FROM '$csv' WITH (FORMAT csv, HEADER true)
-- Numbered in the order COPY wrote them, the file's: the list position.
ALTER TABLE places ADD COLUMN fid bigint GENERATED ALWAYS AS IDENTITY (MINVALUE 0 START WITH 0);
ALTER TABLE places ADD COLUMN geom geometry(Point, 3857);
UPDATE places SET geom = ST_Transform(ST_SetSRID(ST_MakePoint(longitude, greatest(-85.0511287798, least(85.0511287798, latitude))), 4326), 3857);
CREATE INDEX places_geom ON places USING gist (geom);
VACUUM ANALYZE places;
SQL
echo "places: $("${psql[@]}" -tAc 'SELECT count(*) FROM places')"

for argument in "$@"; do
    mix="${argument%%=*}"
    addresses="$(realpath "${argument#*=}")"
    [[ "$mix" =~ ^[a-z-]+$ ]] || { echo "postgis-tiles: bad mix name '$mix'" >&2; exit 64; }
    table="tiles_${mix//-/_}"
    cp "$addresses" "$folder/$table.txt"
    chmod a+r "$folder/$table.txt"
    "${psql[@]}" <<SQL
CREATE TABLE $table (n integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, z integer, x integer, y integer);
\copy $table (z, x, y) FROM '$folder/$table.txt' WITH (FORMAT csv, DELIMITER '/')
ANALYZE $table;
SQL
    count="$("${psql[@]}" -tAc "SELECT count(*) FROM $table")"
    # One statement a tile: the address looked up by its number, then the
    # points under its widened envelope through the GiST index.
    cat > "$folder/$table.sql" <<SQL
\set n random(1, $count)
SELECT ST_AsMVT(t, 'stores', 4096, 'geom', 'fid') FROM (
    SELECT ST_AsMVTGeom(p.geom, ST_TileEnvelope(a.z, a.x, a.y), 4096, 320, true) AS geom, p.fid, p.id, p.name
    FROM $table AS a JOIN places AS p ON p.geom && ST_TileEnvelope(a.z, a.x, a.y, margin => 320.0 / 4096)
    WHERE a.n = :n
) AS t;
SQL
    chmod a+r "$folder/$table.sql"
    for clients in 1 32; do
        rate="$(pgbench -n -h "$folder" -U bench -c "$clients" -j "$(( clients < 2 ? 1 : 2 ))" -T "$seconds" \
            --random-seed=4300 -f "$folder/$table.sql" postgres \
            | sed -n 's/^tps = \([0-9.]*\).*/\1/p')"
        echo "$mix clients $clients: $rate tiles/s"
    done
done
