#!/usr/bin/env bash
# Issue 26's server figures, in one run on one machine:
#
# 1. GET /stores/near?limit=10 from points uniform over the globe (the
#    server benchmark's seeded wrk script), `carousel serve` on PostgreSQL
#    against `carousel serve` on SQLite, same places, 1 and 32 connections:
#    answered from memory (the default) and through the catalog
#    (`--nearest-in-memory 0`). Target: PostgreSQL ≥ 50 % of SQLite's req/s.
# 2. The database path alone: our nearest query (KNN candidates within the
#    search radius, re-ranked by haversine in the server) under pgbench,
#    against raw PostGIS geography KNN (`ORDER BY point <-> q LIMIT 10`) on
#    the same table, with the same points, 1 and 32 clients.
# 3. Three nodes (`carousel serve` ×3 on one database): a list replaced
#    through node 1, the time until nodes 2 and 3 answer with its new entity
#    tag, polled every 2 ms with curl, over 20 replaces.
#
#   Benchmarks/scripts/postgres-serve.sh CAROUSEL [places.csv] [seconds]
#
# CAROUSEL is the binary to measure (scripts/install's). Starts its own
# PostgreSQL 15 cluster (pg-cluster.sh) and stops it, and every server, on exit.
set -euo pipefail
carousel="$(realpath "${1:?usage: postgres-serve.sh CAROUSEL [places.csv] [seconds]}")"
csv="$(realpath "${2:-../shared/data/geonames-places.csv}")"
seconds="${3:-10}"
[ -f "$csv" ] || { echo "postgres-serve: no places file at $csv" >&2; exit 1; }
command -v wrk >/dev/null || { echo "postgres-serve: needs wrk (apt-get install wrk)" >&2; exit 1; }
source "$(dirname "$0")/pg-cluster.sh"
servers=()
stop_all() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    stop_cluster
}
trap stop_all EXIT

"${psql[@]}" -c "CREATE DATABASE catalog"
"${psql[@]}" -d catalog -c "CREATE EXTENSION postgis"
pg="postgresql://bench@/catalog?host=$folder"
sqlite="$folder/catalog.sqlite"
"$carousel" import "$csv" --list places --db "$pg" >/dev/null
"$carousel" import "$csv" --list places --db "$sqlite" >/dev/null
echo "places: $("${psql[@]}" -d catalog -tAc 'SELECT count(*) FROM stores')"

# serve DB [ARGS…]: starts a server on a free port; sets $port.
serve() {
    local log; log="$(mktemp "$folder/serve.XXXXXX")"
    "$carousel" serve --db "$1" --port 0 "${@:2}" 2>"$log" &
    servers+=("$!")
    for _ in $(seq 1 500); do
        port="$(sed -n 's|.*on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log" | head -1)"
        [ -n "$port" ] && return 0
        sleep 0.02
    done
    echo "postgres-serve: the server did not start: $(cat "$log")" >&2
    exit 1
}

lua="$(realpath "$(dirname "$0")/random-near.lua")"

# load PORT CONNECTIONS: "req/s p50 p99" of wrk on the random points.
load() {
    local out
    out="$(wrk -t "$(( $2 < 2 ? 1 : 2 ))" -c "$2" -d "${seconds}s" --latency -s "$lua" "http://127.0.0.1:$1")"
    local rate p50 p99
    rate="$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$out")"
    p50="$(awk '$1 == "50%" { print $2 }' <<<"$out")"
    p99="$(awk '$1 == "99%" { print $2 }' <<<"$out")"
    echo "$rate $p50 $p99"
}

echo
echo "== GET /stores/near?limit=10, uniform points, ${seconds} s per run =="
printf '%-34s %6s %12s %10s %10s\n' "server" "conns" "req/s" "p50" "p99"
for mode in memory catalog; do
    extra=()
    [ "$mode" = catalog ] && extra=(--nearest-in-memory 0)
    serve "$sqlite" "${extra[@]}"; sqlite_port="$port"
    serve "$pg" "${extra[@]}"; pg_port="$port"
    # Let the in-memory snapshots build before measuring.
    curl -s "http://127.0.0.1:$sqlite_port/stores/near?lat=0&lng=0" >/dev/null
    curl -s "http://127.0.0.1:$pg_port/stores/near?lat=0&lng=0" >/dev/null
    sleep 3
    for conns in 1 32; do
        read -r s_rate s_p50 s_p99 <<<"$(load "$sqlite_port" "$conns")"
        read -r p_rate p_p50 p_p99 <<<"$(load "$pg_port" "$conns")"
        printf '%-34s %6s %12s %10s %10s\n' "SQLite, $mode" "$conns" "$s_rate" "$s_p50" "$s_p99"
        printf '%-34s %6s %12s %10s %10s\n' "PostgreSQL, $mode" "$conns" "$p_rate" "$p_p50" "$p_p99"
        echo "   PostgreSQL / SQLite: $(awk -v p="$p_rate" -v s="$s_rate" 'BEGIN { printf "%.2f", p / s }') (target ≥ 0.50)"
    done
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    servers=()
done

echo
echo "== The database path alone: pgbench, ${seconds} s per run, the same points =="
# pgbench's random() is uniform; asin(2u - 1) makes the latitude uniform over the sphere.
point='ST_SetSRID(ST_MakePoint(:v * 0.00036 - 180, degrees(asin(:u * 0.000002 - 1))), 4326)::geography'
cat > "$folder/raw.sql" <<SQL
\set u random(0, 1000000)
\set v random(0, 1000000)
SELECT id, ST_Distance(point, q) FROM stores, (SELECT $point AS q) AS p ORDER BY point <-> q LIMIT 10;
SQL
# Ours: the query PostgresCatalog.nearest sends first (18 KNN candidates
# for 10), with the columns it reads; the re-ranking is the server's.
cat > "$folder/ours.sql" <<SQL
\set u random(0, 1000000)
\set v random(0, 1000000)
SELECT s.key, s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes::text, s.point <-> q
FROM stores AS s, (SELECT $point AS q) AS p
ORDER BY s.point <-> q LIMIT 18;
SQL
chmod a+r "$folder/raw.sql" "$folder/ours.sql"
for clients in 1 32; do
    tps() {
        pgbench -n -h "$folder" -U bench -c "$clients" -j "$(( clients < 2 ? 1 : 2 ))" -T "$seconds" -f "$1" catalog \
            | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
    }
    raw="$(tps "$folder/raw.sql")"
    ours="$(tps "$folder/ours.sql")"
    echo "clients $clients: raw PostGIS KNN $raw q/s, our query $ours q/s, ratio $(awk -v o="$ours" -v r="$raw" 'BEGIN { printf "%.2f", o / r }')"
done

echo
echo "== Three nodes on one database: a replace through node 1, seen by nodes 2 and 3 =="
token="$("$carousel" tokens create bench-writer --scope write --db "$pg" | tail -1)"
ports=()
for _ in 1 2 3; do serve "$pg"; ports+=("$port"); done
printf 'id,name,latitude,longitude\na,A,37.5,127.0\n' > "$folder/small.csv"
curl -sf -X POST -H "Authorization: Bearer $token" --data-binary @"$folder/small.csv" \
    "http://127.0.0.1:${ports[0]}/lists/small/import?format=csv" >/dev/null
tag() { curl -s -o /dev/null -D - "http://127.0.0.1:$1/lists/small/stores" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p'; }
now_ms() { date +%s%3N; }
times=()
for run in $(seq 1 20); do
    before2="$(tag "${ports[1]}")"; before3="$(tag "${ports[2]}")"
    printf 'id,name,latitude,longitude\na%s,A,37.5,127.0\n' "$run" > "$folder/small.csv"
    curl -sf -X POST -H "Authorization: Bearer $token" --data-binary @"$folder/small.csv" \
        "http://127.0.0.1:${ports[0]}/lists/small/import?format=csv&replace=true" >/dev/null
    start="$(now_ms)"
    seen2=""; seen3=""
    for _ in $(seq 1 2000); do
        [ -z "$seen2" ] && [ "$(tag "${ports[1]}")" != "$before2" ] && seen2="$(( $(now_ms) - start ))"
        [ -z "$seen3" ] && [ "$(tag "${ports[2]}")" != "$before3" ] && seen3="$(( $(now_ms) - start ))"
        [ -n "$seen2" ] && [ -n "$seen3" ] && break
        sleep 0.002
    done
    times+=("${seen2:-timeout}" "${seen3:-timeout}")
done
printf '%s\n' "${times[@]}" | sort -n | awk '
    { v[NR] = $1 } END { printf "propagation over %d observations: median %s ms, max %s ms (each poll is a curl, ~5 ms)\n", NR, v[int((NR + 1) / 2)], v[NR] }'
# Answers agree: the same nearest stores from every node.
for p in "${ports[@]}"; do curl -s "http://127.0.0.1:$p/stores/near?lat=-33.86&lng=151.2&limit=5" | md5sum; done | sort -u | wc -l \
    | awk '{ print ($1 == 1 ? "the three nodes answer alike" : "the nodes answer differently!") }'
