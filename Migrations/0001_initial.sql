-- 0001: stores, lists and list items.
--
-- Shipped migrations are never edited: change the schema in a new file.

-- 'CRSL': marks the file as a carousel catalog, so that opening another
-- application's SQLite database is refused instead of migrated.
PRAGMA application_id = 1129468748;

-- A store, keyed by the text `id` users see. `key` is the compact integer the
-- other tables refer to (stable: re-importing a store updates its row).
CREATE TABLE stores (
    key        INTEGER PRIMARY KEY,
    id         TEXT    NOT NULL UNIQUE,
    name       TEXT    NOT NULL,
    latitude   REAL    NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude  REAL    NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    address    TEXT,
    category   TEXT,
    phone      TEXT,
    -- Every other input column: a JSON object of strings, NULL when empty.
    attributes TEXT
);

CREATE TABLE lists (
    key  INTEGER PRIMARY KEY,
    name TEXT    NOT NULL UNIQUE
);

-- The carousel order: positions 0..<count, dense. `list` is a lists.key and
-- `store` a stores.key, deliberately not declared foreign keys: SQLite would
-- check the list on every inserted item (a sixth of an import's time) and
-- scan this table for every deleted store (it has no index on `store`, which
-- would cost every import a random B-tree insert per row). The catalog
-- deletes a list's items with the list, and a store once no list holds it.
CREATE TABLE list_items (
    list     INTEGER NOT NULL,
    position INTEGER NOT NULL,
    store    INTEGER NOT NULL,
    PRIMARY KEY (list, position)
) WITHOUT ROWID;
