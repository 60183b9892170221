#!/usr/bin/env bash
# Issue 45's targets for delta sync, on the 234,908 places:
#   - the import with the change log (wall, median of RUNS; compare with
#     BENCHMARKS.md's import row of a build before the change log: ≤ 1.2×);
#   - the first sync of the whole list in pages of 5,000 (≤ 10 s; peak RSS
#     ≤ 64 MiB for the client, GNU time, and the server, VmHWM);
#   - a replace that changes 100 stores, then the next sync: its bytes
#     (≤ 1 % of the first sync's), the server's time for its requests (its
#     request log, ≤ 200 ms) and the sync's wall time over loopback
#     (≤ 500 ms end to end).
#
#   Benchmarks/scripts/sync.sh CAROUSEL [places.csv] [runs] [BEFORE]
#
# CAROUSEL is the binary to measure: what `scripts/install` installs
# (`carousel-net` beside it). BEFORE, optional, is a `carousel` built
# before the change log (402c130, installed the same way): the imports
# then alternate between the two and the ratio is printed. The floor of
# the log's cost is printed too (sqlite3 alone; below).
#
# Memory is printed as peak RSS and split, by sampling /proc every 20 ms,
# into anonymous memory (the process's own heap and stacks) and
# file-backed pages (the binary and its libraries, and the catalog file
# SQLite maps: the OS's page cache, shared and reclaimable).
set -euo pipefail
carousel="$(realpath "${1:?usage: sync.sh CAROUSEL [places.csv] [runs]}")"
csv="$(realpath "${2:-../shared/data/geonames-places.csv}")"
runs="${3:-3}"
before_binary="${4:-}"
[ -z "$before_binary" ] || before_binary="$(realpath "$before_binary")"
[ -f "$csv" ] || { echo "sync: no places file at $csv" >&2; exit 1; }
folder="$(mktemp -d)"
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$folder"; }
trap cleanup EXIT
now() { date +%s.%N; }
elapsed_ms() { python3 -c "print(round(($2 - $1) * 1000, 1))"; }

# 1. The import, with its change log, RUNS times into new catalogs
#    (alternating with BEFORE when given).
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
imports=()
befores=()
for run in $(seq "$runs"); do
    rm -f "$folder"/import.sqlite*
    start="$(now)"
    /usr/bin/time -f %M -o "$folder/rss" "$carousel" import "$csv" --list places --db "$folder/import.sqlite" >/dev/null
    imports+=("$(elapsed_ms "$start" "$(now)")")
    if [ -n "$before_binary" ]; then
        rm -f "$folder"/before.sqlite*
        start="$(now)"
        "$before_binary" import "$csv" --list places --db "$folder/before.sqlite" >/dev/null
        befores+=("$(elapsed_ms "$start" "$(now)")")
    fi
done
import_ms="$(printf '%s\n' "${imports[@]}" | median)"
echo "import 234,908 rows with the change log: median $import_ms ms of ${imports[*]}; peak RSS $(( $(cat "$folder/rss") / 1024 )) MiB"
if [ -n "$before_binary" ]; then
    before_ms="$(printf '%s\n' "${befores[@]}" | median)"
    echo "import before the change log ($before_binary): median $before_ms ms of ${befores[*]}; ratio $(python3 -c "print(round($import_ms / $before_ms, 2))")x"
fi
# The floor: what writing the log costs sqlite3 alone, one INSERT ...
# SELECT in one transaction, no code of ours in the way, on a copy of the
# catalog without the log. Three designs: the log's rows as they are
# (feed_entries, keyed by id, with an index by sequence number), in list
# order (this file's ids are in id order already: no sort is timed);
# the least any log of a row per store writes (one B-tree, keyed by
# sequence number); and no row at all, the per-store state kept on the
# store's own row (three columns and an index by sequence number): the
# extra time of writing the stores so, against writing them as they are.
cp "$folder/import.sqlite" "$folder/floor.sqlite"
sqlite3 "$folder/floor.sqlite" "DELETE FROM feed_entries; VACUUM;"
sql_ms() {  # sql_ms SETUP STATEMENT: the statement's wall time on a fresh copy
    cp "$folder/floor.sqlite" "$folder/floor-run.sqlite"
    sqlite3 "$folder/floor-run.sqlite" "$1" >/dev/null
    printf '.timer on\nBEGIN;\n%s\nCOMMIT;\n' "$2" | sqlite3 "$folder/floor-run.sqlite" | awk '/real/ {s += $4} END {print s * 1000}'
}
log_rows="SELECT 1, s.id, i.position + 1, (i.position + 1) * 1048576, s.key * 7919, 1700000000
    FROM list_items AS i JOIN stores AS s ON s.key = i.store WHERE i.list = (SELECT key FROM lists) ORDER BY i.position"
floor="$(sql_ms "" "INSERT INTO feed_entries (feed, id, seq, rank, content, at) $log_rows;")"
seq_only="$(sql_ms "CREATE TABLE log (feed INTEGER, seq INTEGER, id TEXT, rank INTEGER, content INTEGER, at INTEGER,
    PRIMARY KEY (feed, seq)) WITHOUT ROWID;" "INSERT INTO log $log_rows;")"
copy="CREATE TABLE copy (key INTEGER PRIMARY KEY, list INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, latitude REAL,
    longitude REAL, address TEXT, category TEXT, phone TEXT, attributes TEXT, seq INTEGER, rank INTEGER, content INTEGER,
    UNIQUE (list, id));"
plain="$(sql_ms "$copy" "INSERT INTO copy SELECT key, 2, id, name, latitude, longitude, address, category, phone, attributes,
    NULL, NULL, NULL FROM stores;")"
on_rows="$(sql_ms "$copy CREATE INDEX copy_by_seq ON copy (list, seq);" "INSERT INTO copy SELECT key, 2, id, name, latitude,
    longitude, address, category, phone, attributes, key, key * 1048576, key * 7919 FROM stores;")"
echo "floor of the log's cost, sqlite3 alone: its 234,908 rows as they are $floor ms; keyed by sequence number only $seq_only ms;"
echo "  state on the stores' rows instead: $(python3 -c "print(round($on_rows - $plain))") ms more than the stores alone ($on_rows against $plain ms)"

# Samples pid's RssAnon and RssFile every 20 ms until it exits; prints
# the peaks in MiB.
rss_split() {
    local pid=$1 anon=0 file=0 a f
    while kill -0 "$pid" 2>/dev/null; do
        a="$(awk '/RssAnon/ {print $2}' /proc/"$pid"/status 2>/dev/null || true)"
        f="$(awk '/RssFile/ {print $2}' /proc/"$pid"/status 2>/dev/null || true)"
        [ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
        [ -n "$f" ] && [ "$f" -gt "$file" ] && file=$f
        sleep 0.02
    done
    echo "anonymous $(( anon / 1024 )) MiB, file-backed $(( file / 1024 )) MiB"
}
status_mib() { echo $(( $(awk "/$2/ {print \$2}" /proc/"$1"/status) / 1024 )); }

# 2. A server on the catalog, and a first sync in pages of 5,000.
cp "$folder/import.sqlite" "$folder/server.sqlite"
port=18471
"$carousel" serve --db "$folder/server.sqlite" --port "$port" 2>"$folder/serve.log" &
server_pid=$!
for _ in $(seq 100); do grep -q "serving" "$folder/serve.log" 2>/dev/null && break; sleep 0.1; done
server_pid="$(pgrep -f "serve --db $folder/server.sqlite" | tail -n 1)"
url="http://127.0.0.1:$port"
sleep 5  # a server as it runs: started, idle (no nearest request, so no nearest-store snapshot)
echo "server before the sync: RSS $(status_mib "$server_pid" VmRSS) MiB (anonymous $(status_mib "$server_pid" RssAnon), file-backed $(status_mib "$server_pid" RssFile))"
anon_before="$(status_mib "$server_pid" RssAnon)"
start="$(now)"
/usr/bin/time -f %M -o "$folder/rss" "$carousel" sync --from "$url" --list places --db "$folder/device.sqlite" --page-size 5000 >"$folder/first" &
sync_pid=$!
client_pid="$(pgrep -P "$sync_pid" | head -n 1)"
for _ in $(seq 50); do [ -n "$client_pid" ] && break; sleep 0.01; client_pid="$(pgrep -P "$sync_pid" | head -n 1)"; done
# `carousel sync` runs `carousel-net`: follow the deepest child.
while [ -n "$client_pid" ] && child="$(pgrep -P "$client_pid" | head -n 1)" && [ -n "$child" ]; do client_pid="$child"; done
client_split="$([ -n "$client_pid" ] && rss_split "$client_pid" || echo "not sampled")"
wait "$sync_pid"
first_ms="$(elapsed_ms "$start" "$(now)")"
first_bytes="$(python3 - "$folder/first" <<'PY'
import re, sys
line = open(sys.argv[1]).read()
m = re.search(r"removed, ([\d.]+) (bytes|KiB|MiB|GiB)", line)
print(int(float(m.group(1)) * {"bytes": 1, "KiB": 1024, "MiB": 1 << 20, "GiB": 1 << 30}[m.group(2)]))
PY
)"
echo "first sync: $first_ms ms, $(cat "$folder/first")"
echo "first sync: client peak RSS $(( $(cat "$folder/rss") / 1024 )) MiB ($client_split)"
echo "first sync: server peak RSS $(status_mib "$server_pid" VmHWM) MiB; now anonymous $(status_mib "$server_pid" RssAnon) MiB (+$(( $(status_mib "$server_pid" RssAnon) - anon_before )) during the sync), file-backed $(status_mib "$server_pid" RssFile) MiB"

# 3. A replace that changes 100 stores (their names), then the next sync.
python3 - "$csv" "$folder/changed.csv" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
step = (len(lines) - 2) // 100
for k in range(100):
    row = lines[1 + k * step].split(",")
    row[1] = row[1] + " (changed)"
    lines[1 + k * step] = ",".join(row)
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines))
PY
start="$(now)"
"$carousel" import "$folder/changed.csv" --list places --replace --db "$folder/server.sqlite" >/dev/null
echo "replace with 100 changed stores: $(elapsed_ms "$start" "$(now)") ms"
before="$(wc -l <"$folder/serve.log")"
start="$(now)"
"$carousel" sync --from "$url" --list places --db "$folder/device.sqlite" >"$folder/delta"
delta_ms="$(elapsed_ms "$start" "$(now)")"
server_ms="$(tail -n +"$((before + 1))" "$folder/serve.log" | grep "/changes" | awk '{s += $(NF-1)} END {print s}')"
delta_bytes="$(python3 - "$folder/delta" <<'PY'
import re, sys
line = open(sys.argv[1]).read()
m = re.search(r"removed, ([\d.]+) (bytes|KiB|MiB|GiB)", line)
print(int(float(m.group(1)) * {"bytes": 1, "KiB": 1024, "MiB": 1 << 20, "GiB": 1 << 30}[m.group(2)]))
PY
)"
echo "next sync: $delta_ms ms end to end, $server_ms ms in the server's requests, $(cat "$folder/delta")"
echo "next sync's bytes: $(python3 -c "print(round(100 * $delta_bytes / $first_bytes, 3))") % of the first sync's"
"$carousel" export places --format csv --db "$folder/server.sqlite" >"$folder/theirs.csv"
"$carousel" export places --format csv --db "$folder/device.sqlite" >"$folder/ours.csv"
cmp -s "$folder/theirs.csv" "$folder/ours.csv" && echo "exports: identical" || echo "exports: DIFFER"
