-- 0005: a store belongs to one list; its id is unique within that list.
--
-- Until now a store was keyed by its id across the catalog, so importing a
-- second list that reused an id ("s1" in city 1 and in city 2, the common
-- case for files numbered 1…N) rewrote the first list's store. Now `stores`
-- has a `list` column (a lists.key) and ids are unique per (list, id): two
-- lists may hold the same id with different data, and an import, a replace
-- or a delete touches its own list's rows only.
--
-- Migrating keeps every list's data. A store that several lists shared
-- becomes one copy per list: the list with the lowest key keeps the store's
-- key (so a catalog with no shared store keeps every key, and its stored
-- cluster indexes stay valid); every other list's copy gets a new key above
-- the highest one, and its items and spatial index rows are re-pointed to
-- it. A store in no list is not carried over (the catalog deleted those
-- already; none should exist).

-- The first list (lowest key) holding each store. list_items has no index
-- on `store`, so this is one sort of the items.
CREATE TEMP TABLE migration_first_list (store INTEGER PRIMARY KEY, list INTEGER NOT NULL);
INSERT INTO temp.migration_first_list (store, list)
SELECT store, min(list) FROM list_items GROUP BY store;

-- The other memberships, each with the key of its copy.
CREATE TEMP TABLE migration_copies (
    list INTEGER NOT NULL,
    old  INTEGER NOT NULL,
    new  INTEGER NOT NULL,
    PRIMARY KEY (list, old)
) WITHOUT ROWID;
INSERT INTO temp.migration_copies (list, old, new)
SELECT list, store, (SELECT coalesce(max(key), 0) FROM stores) + row_number() OVER (ORDER BY list, store)
FROM (SELECT DISTINCT i.list AS list, i.store AS store
      FROM list_items AS i JOIN temp.migration_first_list AS f ON f.store = i.store
      WHERE i.list <> f.list);

CREATE TABLE stores_per_list (
    key        INTEGER PRIMARY KEY,
    list       INTEGER NOT NULL,   -- lists.key (not a declared foreign key: see 0001)
    id         TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    latitude   REAL    NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude  REAL    NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    address    TEXT,
    category   TEXT,
    phone      TEXT,
    attributes TEXT,
    -- Also the index that finds a list's stores (a delete, a replace).
    UNIQUE (list, id)
);

INSERT INTO stores_per_list (key, list, id, name, latitude, longitude, address, category, phone, attributes)
SELECT s.key, f.list, s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes
FROM stores AS s JOIN temp.migration_first_list AS f ON f.store = s.key
ORDER BY s.key;

INSERT INTO stores_per_list (key, list, id, name, latitude, longitude, address, category, phone, attributes)
SELECT c.new, c.list, s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes
FROM temp.migration_copies AS c JOIN stores AS s ON s.key = c.old
ORDER BY c.new;

-- Re-point the copies' items and index rows (the cluster-index triggers
-- drop those lists' stored indexes: they are rebuilt on the next query).
UPDATE list_items SET store = c.new
FROM temp.migration_copies AS c
WHERE c.list = list_items.list AND c.old = list_items.store;

UPDATE spatial_index SET store = c.new
FROM temp.migration_copies AS c
WHERE c.list = spatial_index.list AND c.old = spatial_index.store;

DROP TABLE stores;
ALTER TABLE stores_per_list RENAME TO stores;

DROP TABLE temp.migration_copies;
DROP TABLE temp.migration_first_list;
