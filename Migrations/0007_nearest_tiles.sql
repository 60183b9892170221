-- 0007: an R*Tree of tiles of stores, for nearest searches whose cost does
-- not depend on how far the nearest stores are.
--
-- A tile holds up to 64 memberships of one list, those of one cell of 1
-- degree of latitude (64 bands of spatial_index) by 1 degree of longitude,
-- in the index's key order. Its R*Tree entry is the list (a dimension
-- list..list, so a search of one list never descends into another's
-- entries) and the box of its stores' unit vectors (x, y, z on the unit
-- sphere: a chord bounds the great-circle distance below, and no longitude
-- wraps). `members` packs the stores themselves (key, latitude, longitude:
-- 24 bytes each, little-endian), so a tile costs one read. Why tiles and
-- not one entry per store: BENCHMARKS.md and SpatialTiles.swift.
--
-- spatial_index stays: it answers bounding boxes and membership. The
-- carousel_* functions are the catalog's own (CatalogDatabase registers
-- them on every connection): the same unit vectors and packing the import
-- writes, so both build identical tiles.
CREATE VIRTUAL TABLE spatial_tiles USING rtree(
    id,
    list_min, list_max,
    x_min, x_max,
    y_min, y_max,
    z_min, z_max,
    +list INTEGER,
    +members BLOB
);

INSERT INTO spatial_tiles (list_min, list_max, x_min, x_max, y_min, y_max, z_min, z_max, list, members)
SELECT list, list, min(x), max(x), min(y), max(y), min(z), max(z), list,
       carousel_tile_members(store, latitude, longitude)
FROM (
    SELECT list, store, latitude, longitude,
           carousel_unit_x(latitude, longitude) AS x,
           carousel_unit_y(latitude, longitude) AS y,
           carousel_unit_z(latitude) AS z,
           band / 64 AS tile_row,
           min(359, CAST(longitude + 180.0 AS INTEGER)) AS tile_column,
           (row_number() OVER (
                PARTITION BY list, band / 64, min(359, CAST(longitude + 180.0 AS INTEGER))
                ORDER BY band, longitude, latitude, store) - 1) / 64 AS chunk
    FROM spatial_index
)
GROUP BY list, tile_row, tile_column, chunk;
