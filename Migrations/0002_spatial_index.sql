-- 0002: the spatial index of list memberships.
--
-- One row per (store, list): latitude bands of 1/4 degree, then longitude,
-- so a box is one range seek per band. Keeping the list in the key lets a
-- query filter by list on the index itself, and lets a store's memberships be
-- found from its coordinates (stores in no list are removed). Coordinates are
-- copied here so that candidates are judged without touching `stores`.
--
-- The band is floor((latitude + 90) * 4); `latitude + 90` is never negative,
-- so CAST's truncation is that floor. SpatialIndex.band(latitude:) in Swift
-- computes the same double arithmetic; both must agree.
CREATE TABLE spatial_index (
    band      INTEGER NOT NULL,
    longitude REAL    NOT NULL,
    latitude  REAL    NOT NULL,
    store     INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    PRIMARY KEY (band, longitude, latitude, store, list)
) WITHOUT ROWID;

-- Catalogs written by schema 1 get their index built from what they hold.
INSERT INTO spatial_index (band, longitude, latitude, store, list)
SELECT CAST((s.latitude + 90.0) * 4.0 AS INTEGER), s.longitude, s.latitude, s.key, i.list
FROM list_items AS i
JOIN stores AS s ON s.key = i.store;
