#!/usr/bin/env bash
# Issue 43's export target: `carousel tiles export` of the 234,908 places
# at zooms 0–14 into MBTiles and PMTiles (target: ≤ 60 s, peak RSS ≤ 256 MiB
# each). The list is imported into a fresh catalog and its cluster index
# built first (`carousel clusters`, as the first tile request would), so
# the figures are the export's own; each format is exported `runs` times
# and the median wall time and the largest peak RSS are printed, as a
# row of BENCHMARKS.md.
#
#   Benchmarks/scripts/tiles-export.sh CAROUSEL [places.csv] [runs]
#
# CAROUSEL is the binary to measure (scripts/install's). Peak RSS comes
# from GNU time. The archives are read back by PyPI's pmtiles (both hold
# the same tiles: a random 20,000 of them, as its reader walks the
# directories per tile) when .build-venv has it.
set -euo pipefail
carousel="$(realpath "${1:?usage: tiles-export.sh CAROUSEL [places.csv] [runs]}")"
csv="$(realpath "${2:-../shared/data/geonames-places.csv}")"
runs="${3:-3}"
[ -f "$csv" ] || { echo "tiles-export: no places file at $csv" >&2; exit 1; }
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT

"$carousel" import "$csv" --list places --db "$folder/catalog.sqlite" >/dev/null
"$carousel" clusters --list places --db "$folder/catalog.sqlite" --zoom 0 --south -85 --west -180 --north 85 --east 180 >/dev/null

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for format in mbtiles pmtiles; do
    : >"$folder/walls"
    : >"$folder/peaks"
    for _ in $(seq 1 "$runs"); do
        rm -f "$folder/places.$format"
        start="$(date +%s.%N)"
        /usr/bin/time -f %M -o "$folder/rss" "$carousel" tiles export --list places --db "$folder/catalog.sqlite" \
            --max-zoom 14 --output "$folder/places.$format" >"$folder/summary"
        echo "$(date +%s.%N) - $start" | bc >>"$folder/walls"
        cat "$folder/rss" >>"$folder/peaks"
    done
    wall="$(median <"$folder/walls")"
    peak="$(sort -n "$folder/peaks" | tail -n 1)"
    bytes="$(stat -c %s "$folder/places.$format")"
    printf '| tiles export, zooms 0–14, %s: wall (peak RSS) | %.1f s (%.0f MiB) | %s | ≤ 60 s, ≤ 256 MiB | %s |\n' \
        "$format" "$wall" "$(echo "$peak / 1024" | bc -l)" "$(sed 's/ to .* in / in /' "$folder/summary"), $((bytes / 1048576)) MiB file" \
        "$(awk -v w="$wall" -v p="$peak" 'BEGIN { print (w <= 60 && p <= 262144) ? "✓" : "✗" }')"
done

venv="$(dirname "$0")/../../.build-venv"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import pmtiles" 2>/dev/null; then
    "$venv/bin/python" - "$folder/places.mbtiles" "$folder/places.pmtiles" <<'PY'
import gzip, sqlite3, sys
from pmtiles.reader import Reader, MmapSource
mb, pm = sys.argv[1], sys.argv[2]
with open(pm, "rb") as f:
    reader = Reader(MmapSource(f))
    count = 0
    database = sqlite3.connect(mb)
    total = database.execute("SELECT count(*) FROM tiles").fetchone()[0]
    assert total == reader.header()["addressed_tiles_count"], (total, reader.header()["addressed_tiles_count"])
    for z, x, row, data in database.execute(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY random() LIMIT 20000"):
        tile = reader.get(z, x, (1 << z) - 1 - row)
        assert tile is not None and gzip.decompress(tile) == gzip.decompress(data), (z, x, row)
        count += 1
print(f"read back: {total} tiles in each archive; {count} sampled MBTiles tiles are the PMTiles file's (PyPI pmtiles)")
PY
fi
