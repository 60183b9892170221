#!/usr/bin/env bash
# Replaces of the 234,908 places by two builds in turn, RUNS times each:
# a fresh import, then a replace that changes 100 names (the first after
# the import), then another (the next). Wall from spawn to exit, medians.
# The change log diffs a replace against the list it replaces; on SQLite
# the first replace after an import also writes the feed's base out as
# rows (ChangeLog.Base), so the two replaces are timed apart.
#
#   Benchmarks/scripts/replace-ratio.sh BEFORE AFTER [places.csv] [runs]
set -euo pipefail
default_runs=5
source "$(dirname "$0")/two-builds.sh"
# Two versions of the file, each with 100 names changed, one every
# (rows / 100) rows, as sync.sh changes them.
python3 - "$csv" "$folder" <<'PY'
import csv, io, sys
source, folder = sys.argv[1], sys.argv[2]
lines = open(source, encoding="utf-8").read().splitlines(True)
step = (len(lines) - 2) // 100
changed = {1 + k * step for k in range(100)}
for version in (1, 2):
    out = [lines[0]]
    for number, line in enumerate(lines[1:], 1):
        if number in changed:
            row = next(csv.reader([line]))
            row[1] += f" v{version}"
            text = io.StringIO()
            csv.writer(text, lineterminator="\n").writerow(row)
            line = text.getvalue()
        out.append(line)
    open(f"{folder}/changed{version}.csv", "w", encoding="utf-8").write("".join(out))
PY
declare -A first=([before]="" [after]="") next=([before]="" [after]="")
ms() { echo $(( ($2 - $1) / 1000000 )); }
for _ in $(seq "$runs"); do
    for which in before after; do
        binary="$before"; [ "$which" = after ] && binary="$after"
        db="$folder/$which.sqlite"
        rm -f "$db"*
        "$binary" import "$csv" --list places --db "$db" >/dev/null
        start=$(date +%s%N)
        "$binary" import "$folder/changed1.csv" --list places --replace --db "$db" >/dev/null
        middle=$(date +%s%N)
        "$binary" import "$folder/changed2.csv" --list places --replace --db "$db" >/dev/null
        end=$(date +%s%N)
        first[$which]+="$(ms "$start" "$middle") "
        next[$which]+="$(ms "$middle" "$end") "
    done
done
for which in before after; do
    printf '%-7s first replace: median %s ms of %s; next replace: median %s ms of %s\n' "$which:" \
        "$(echo "${first[$which]}" | median)" "${first[$which]}" "$(echo "${next[$which]}" | median)" "${next[$which]}"
done
