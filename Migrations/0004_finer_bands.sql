-- 0004: latitude bands of 1/64 degree in the spatial index (were 1/4).
--
-- A box is one range seek per band, and each seek reads every store of the
-- band in the box's longitude range, whatever its latitude. A 1/4-degree
-- band is 28 km tall: right for the 234,908 GeoNames places, where a city
-- box is a few km, but in a 10^7-store list of the same cities a box holding
-- the same ~28 stores is 300 m tall, so a query read ~80 times the stores it
-- returned (3.3 times the time at 234,908; BENCHMARKS.md, scale). A band of
-- 1/64 degree (1.7 km) reads a few times the box at 10^7 and costs a city
-- box at 234,908 one or two more seeks.
--
-- The band is floor((latitude + 90) * 64); SpatialIndex.band(latitude:) in
-- Swift computes the same double arithmetic (64 is a power of two: the
-- product is exact). The table is rebuilt in key order. Dropping it drops
-- the two cluster-index triggers on it (0003), recreated below unchanged:
-- the stored cluster indexes stay valid, as no store moved.
CREATE TABLE spatial_index_rebuilt (
    band      INTEGER NOT NULL,
    longitude REAL    NOT NULL,
    latitude  REAL    NOT NULL,
    store     INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    PRIMARY KEY (band, longitude, latitude, store, list)
) WITHOUT ROWID;

INSERT INTO spatial_index_rebuilt (band, longitude, latitude, store, list)
SELECT CAST((latitude + 90.0) * 64.0 AS INTEGER), longitude, latitude, store, list
FROM spatial_index
ORDER BY 1, 2, 3, 4, 5;

DROP TABLE spatial_index;
ALTER TABLE spatial_index_rebuilt RENAME TO spatial_index;

CREATE TRIGGER cluster_index_place_updated AFTER UPDATE ON spatial_index
WHEN EXISTS (SELECT 1 FROM cluster_indexes WHERE list IN (OLD.list, NEW.list))
BEGIN
    DELETE FROM cluster_parts WHERE list IN (OLD.list, NEW.list);
    DELETE FROM cluster_indexes WHERE list IN (OLD.list, NEW.list);
END;

CREATE TRIGGER cluster_index_place_deleted AFTER DELETE ON spatial_index
WHEN EXISTS (SELECT 1 FROM cluster_indexes WHERE list = OLD.list)
BEGIN
    DELETE FROM cluster_parts WHERE list = OLD.list;
    DELETE FROM cluster_indexes WHERE list = OLD.list;
END;
