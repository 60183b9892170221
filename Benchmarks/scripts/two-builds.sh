# Sourced by the scripts that time two builds in turn (import-ratio.sh,
# replace-ratio.sh): reads `BEFORE AFTER [places.csv] [runs]` into
# $before, $after, $csv and $runs (default $default_runs), makes $folder
# (removed on exit) and defines `median` (of the numbers on stdin, for
# $runs of them).
script="$(basename "$0")"
before="$(realpath "${1:?usage: $script BEFORE AFTER [places.csv] [runs]}")"
after="$(realpath "${2:?usage: $script BEFORE AFTER [places.csv] [runs]}")"
csv="$(realpath "${3:-../shared/data/geonames-places.csv}")"
runs="${4:-$default_runs}"
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
median() { tr ' ' '\n' | grep . | sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
