// The map-sync view model (SPEC §5): focus stream → camera + marker.
