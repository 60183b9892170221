#!/usr/bin/env bash
# The import of two builds in turn, RUNS times each: wall from spawn to
# exit (medians) and the last run's peak RSS (GNU time). Issue 45's
# import target compares a build with the change log to one before it.
#
#   Benchmarks/scripts/import-ratio.sh BEFORE AFTER [places.csv] [runs]
set -euo pipefail
default_runs=15
source "$(dirname "$0")/two-builds.sh"
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
b="$(echo "${times[before]}" | median)"; a="$(echo "${times[after]}" | median)"
echo "before: median $b ms of ${times[before]}(peak RSS $(( peak[before] / 1024 )) MiB)"
echo "after:  median $a ms of ${times[after]}(peak RSS $(( peak[after] / 1024 )) MiB)"
echo "ratio:  $(python3 -c "print(round($a / $b, 2))")x"
