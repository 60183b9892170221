#!/usr/bin/env bash
# Issue 26's import target: `carousel import FILE --list places --db
# postgres://…` against what a user would type by hand instead, `psql`
# running `\copy` into a table, then a geography column and a GiST index
# (target: ≤ 2×). Each run imports into a new database with PostGIS; the
# runs alternate, ours then the peer's, after one untimed warm-up of each,
# and the medians and their ratio are printed.
#
#   Benchmarks/scripts/postgres-import.sh CAROUSEL [places.csv] [runs]
#
# CAROUSEL is the binary to measure (scripts/install's). Starts its own
# PostgreSQL 15 cluster (pg-cluster.sh) and removes it on exit. Peak RSS of
# our import comes from GNU time.
set -euo pipefail
carousel="$(realpath "${1:?usage: postgres-import.sh CAROUSEL [places.csv] [runs]}")"
csv="$(realpath "${2:-../shared/data/geonames-places.csv}")"
runs="${3:-5}"
[ -f "$csv" ] || { echo "postgres-import: no places file at $csv" >&2; exit 1; }
source "$(dirname "$0")/pg-cluster.sh"

fresh() {  # a new database with PostGIS, named $1
    "${psql[@]}" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
    "${psql[@]}" -d "$1" -c "CREATE EXTENSION postgis"
}
now() { date +%s.%N; }

ours() {
    fresh ours
    local start; start="$(now)"
    /usr/bin/time -f %M -o "$folder/rss" "$carousel" import "$csv" --list places \
        --db "postgresql://bench@/ours?host=$folder" >/dev/null
    echo "$(now) - $start" | bc
}

peer() {
    fresh peer
    local start; start="$(now)"
    "${psql[@]}" -d peer <<SQL
CREATE TABLE places (id text PRIMARY KEY, name text NOT NULL, latitude double precision NOT NULL,
    longitude double precision NOT NULL, country text, population bigint);
\copy places FROM '$csv' WITH (FORMAT csv, HEADER true)
ALTER TABLE places ADD COLUMN geog geography(Point, 4326);
UPDATE places SET geog = ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography;
CREATE INDEX places_geog ON places USING gist (geog);
SQL
    echo "$(now) - $start" | bc
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

ours >/dev/null; peer >/dev/null  # warm-up: the file and both programs in the page cache
: >"$folder/ours"; : >"$folder/peer"; : >"$folder/rsses"
for _ in $(seq "$runs"); do
    ours >>"$folder/ours"; cat "$folder/rss" >>"$folder/rsses"
    peer >>"$folder/peer"
done
stores="$("${psql[@]}" -d ours -tAc 'SELECT count(*) FROM stores')"
a="$(median <"$folder/ours")"; b="$(median <"$folder/peer")"
echo "rows: $stores; runs: $runs each, alternating"
printf 'carousel import --db postgres://: %.2f s (peak RSS %.1f MiB)\n' "$a" "$(median <"$folder/rsses" | awk '{ print $1 / 1024 }')"
printf 'psql \\copy + geography + GiST:   %.2f s\n' "$b"
printf 'ratio: %.2fx (target <= 2x)\n' "$(echo "$a / $b" | bc -l)"
