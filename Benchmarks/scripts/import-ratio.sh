#!/usr/bin/env bash
# The import of two builds in turn, RUNS times each: wall from spawn to
# exit (medians) and the last run's peak RSS (GNU time). Issue 45's
# import target compares a build with the change log to one before it.
#
#   Benchmarks/scripts/import-ratio.sh BEFORE AFTER [places.csv] [runs]
set -euo pipefail
before="$(realpath "${1:?usage: import-ratio.sh BEFORE AFTER [places.csv] [runs]}")"
after="$(realpath "${2:?usage: import-ratio.sh BEFORE AFTER [places.csv] [runs]}")"
csv="$(realpath "${3:-../shared/data/geonames-places.csv}")"
runs="${4:-15}"
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
declare -A times=([before]="" [after]="") peak=()
for _ in $(seq "$runs"); do
    for which in before after; do
        binary="$before"; [ "$which" = after ] && binary="$after"
        rm -f "$folder"/import.sqlite*
        start=$(date +%s%N)
        /usr/bin/time -f %M -o "$folder/rss" "$binary" import "$csv" --list places --db "$folder/import.sqlite" >/dev/null
        times[$which]+="$(( ($(date +%s%N) - start) / 1000000 )) "
        peak[$which]="$(cat "$folder/rss")"
    done
done
median() { tr ' ' '\n' | grep . | sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
b="$(echo "${times[before]}" | median)"; a="$(echo "${times[after]}" | median)"
echo "before: median $b ms of ${times[before]}(peak RSS $(( peak[before] / 1024 )) MiB)"
echo "after:  median $a ms of ${times[after]}(peak RSS $(( peak[after] / 1024 )) MiB)"
echo "ratio:  $(python3 -c "print(round($a / $b, 2))")x"
