-- 0010: the nearest search's tiles in a packed tree of our own instead of
-- 0007's R*Tree.
--
-- The tiles stay what 0007 made them: up to 64 memberships of one list,
-- those of one cell of 1 degree of latitude by 1 degree of longitude, each
-- a row holding its stores packed (key, latitude, longitude: 24 bytes each,
-- little-endian). What changes is the tree above them:
--
-- * `tile_nodes` holds both the tiles and the tree's inner nodes, one BLOB
--   each, by key (a rowid table: its interior pages hold keys only, so a
--   read is one short B-tree descent). An inner node packs its children's
--   keys and the boxes of their stores' unit vectors (SpatialTiles.swift
--   has the layout); a search reads the nodes it needs, best first.
-- * `tile_trees` holds each list's root, its box, and the range of keys
--   its nodes use, so that a list's tree is deleted by one range.
--
-- Why: on the 234,908 GeoNames places, inserting the 11,837 tiles into the
-- R*Tree cost 118 ms of the import (the same rows into a plain table:
-- 29 ms), and SQLite's R*Tree code was 70 % of a nearest search from a
-- point drawn uniformly over the globe (103 µs median). BENCHMARKS.md has
-- the figures after.
--
-- The catalog's code builds every list's tree again after this file runs
-- (Migration.swift: `then`), from spatial_index, as an import writes it.
DROP TABLE spatial_tiles;

CREATE TABLE tile_nodes (
    key   INTEGER PRIMARY KEY,
    bytes BLOB    NOT NULL
);

CREATE TABLE tile_trees (
    list  INTEGER PRIMARY KEY,   -- lists.key
    root  INTEGER NOT NULL,      -- tile_nodes.key of the root, an inner node
    first INTEGER NOT NULL,      -- the list's nodes are tile_nodes first...last
    last  INTEGER NOT NULL,
    x_min REAL NOT NULL, x_max REAL NOT NULL,  -- the box of every store of the list
    y_min REAL NOT NULL, y_max REAL NOT NULL,
    z_min REAL NOT NULL, z_max REAL NOT NULL
);
