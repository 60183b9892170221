// Our own lightweight observable (SPEC §5): observables, subjects, operators, schedulers.
