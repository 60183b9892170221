// The carousel engine (SPEC §4): layout, snapping, physics, visibility, focus, looping.
