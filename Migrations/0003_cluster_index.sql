-- 0003: stored cluster indexes, so that a clusters query reads one zoom
-- level instead of clustering the whole list again.
--
-- An index is a cache of what the list's stores (in list order, at their
-- coordinates) give: built on the first clusters query of a list and kept
-- until ANY change to the list. The triggers below drop it, whichever code
-- makes the change: the list renamed or deleted, an item moved or deleted,
-- a membership's coordinates changed or removed (every store move goes
-- through spatial_index). An added item is caught without a trigger: the
-- positions are dense, so an item added anywhere but in a gap a delete left
-- (which already dropped the index) changes the list's count, and a query
-- uses an index only when its count is the list's (one index seek).
--
-- No INSERT trigger, because a row trigger costs every inserted row about
-- 0.5 µs even when its WHEN clause is false (measured: 234,908 list_items
-- inserts took 0.27 s of CPU with one, 0.14 s without), and an import
-- inserts every row twice (list_items, spatial_index); an import always
-- writes a list key that has no index. Bulk deletes (a replaced or deleted
-- list) do pay it.

-- One row per indexed list: what the stored bytes were built with.
CREATE TABLE cluster_indexes (
    list    INTEGER PRIMARY KEY,   -- lists.key
    format  INTEGER NOT NULL,      -- layout of the stored bytes
    points  INTEGER NOT NULL,      -- the list's store count when built
    options TEXT    NOT NULL       -- the clustering options, as text
);

-- The index's parts: per zoom, the level of markers with its KD-tree
-- (kind 0) and each marker's index in the level below (kind 1); per list,
-- each store's uncluster zoom (kind 2, zoom -1).
CREATE TABLE cluster_parts (
    list  INTEGER NOT NULL,
    kind  INTEGER NOT NULL,
    zoom  INTEGER NOT NULL,
    bytes BLOB    NOT NULL,
    PRIMARY KEY (list, kind, zoom)
);

CREATE TRIGGER cluster_index_list_updated AFTER UPDATE ON lists
WHEN EXISTS (SELECT 1 FROM cluster_indexes WHERE list IN (OLD.key, NEW.key))
BEGIN
    DELETE FROM cluster_parts WHERE list IN (OLD.key, NEW.key);
    DELETE FROM cluster_indexes WHERE list IN (OLD.key, NEW.key);
END;

CREATE TRIGGER cluster_index_list_deleted AFTER DELETE ON lists
WHEN EXISTS (SELECT 1 FROM cluster_indexes WHERE list = OLD.key)
BEGIN
    DELETE FROM cluster_parts WHERE list = OLD.key;
    DELETE FROM cluster_indexes WHERE list = OLD.key;
END;

CREATE TRIGGER cluster_index_item_updated AFTER UPDATE ON list_items
WHEN EXISTS (SELECT 1 FROM cluster_indexes WHERE list IN (OLD.list, NEW.list))
BEGIN
    DELETE FROM cluster_parts WHERE list IN (OLD.list, NEW.list);
    DELETE FROM cluster_indexes WHERE list IN (OLD.list, NEW.list);
END;

CREATE TRIGGER cluster_index_item_deleted AFTER DELETE ON list_items
WHEN EXISTS (SELECT 1 FROM cluster_indexes WHERE list = OLD.list)
BEGIN
    DELETE FROM cluster_parts WHERE list = OLD.list;
    DELETE FROM cluster_indexes WHERE list = OLD.list;
END;

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
