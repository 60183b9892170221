-- 0008: a version per list, for the server's entity tags.
--
-- An answer about one list (its stores, a store of it, the nearest stores
-- in it) stays valid until THAT list changes; an import into another list
-- must not invalidate it. Every change to a list's data makes a new `lists`
-- row (an import, a replace: the old row is deleted with its stores, items
-- and index entries) or renames one, so the triggers below give the row a
-- new version on either: the next value of one catalog-wide counter, which
-- only grows. Not the row's key, nor max(version) + 1: both come back after
-- the list holding the highest one is deleted, and a recreated list would
-- then repeat a version a client holds a tag of. A write that changed a
-- list's rows in place would have to bump its version too (none does).

CREATE TABLE counters (
    name  TEXT    NOT NULL PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;

ALTER TABLE lists ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

-- 0003's trigger dropped a list's stored cluster index on ANY update of its
-- row; a new version is no change to the list's stores, so it now watches
-- the columns that are (the same body, fired by fewer updates). Replaced
-- before the versions below are written, which would drop every index.
DROP TRIGGER cluster_index_list_updated;
CREATE TRIGGER cluster_index_list_updated AFTER UPDATE OF key, name ON lists
WHEN EXISTS (SELECT 1 FROM cluster_indexes WHERE list IN (OLD.key, NEW.key))
BEGIN
    DELETE FROM cluster_parts WHERE list IN (OLD.key, NEW.key);
    DELETE FROM cluster_indexes WHERE list IN (OLD.key, NEW.key);
END;

-- Existing lists: versions 1…N in key order; the counter continues from N.
UPDATE lists SET version = (SELECT count(*) FROM lists AS earlier WHERE earlier.key <= lists.key);
INSERT INTO counters (name, value) VALUES ('list_version', (SELECT count(*) FROM lists));

CREATE TRIGGER list_version_inserted AFTER INSERT ON lists
BEGIN
    UPDATE counters SET value = value + 1 WHERE name = 'list_version';
    UPDATE lists SET version = (SELECT value FROM counters WHERE name = 'list_version') WHERE key = NEW.key;
END;

CREATE TRIGGER list_version_renamed AFTER UPDATE OF name ON lists
WHEN OLD.name IS NOT NEW.name
BEGIN
    UPDATE counters SET value = value + 1 WHERE name = 'list_version';
    UPDATE lists SET version = (SELECT value FROM counters WHERE name = 'list_version') WHERE key = NEW.key;
END;
