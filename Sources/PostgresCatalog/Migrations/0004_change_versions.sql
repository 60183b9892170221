-- 0004: versions that tell every server of a commit made through any of
-- them (issue 26): the catalog's change counter, a version per list as
-- the SQLite catalog keeps (its migration 0008), and a NOTIFY on
-- `carousel_changes` with the new counter at every change of a list.
--
-- Every write that changes what a list holds goes through its `lists` row:
-- an import inserts it (a replace deletes the old one first), a rename
-- updates its name, a delete deletes it. Triggers on that row are then
-- enough, and no write path can forget them.
--
-- The counter is a row, not a sequence: a sequence moves before the
-- writer commits, so a reader could see the new number with the old data
-- and tag the old answer with it. The row is read as committed. Writers
-- hold its lock from their list's change until they commit: imports and
-- renames commit one at a time, as on SQLite, while reads never wait.
-- A NOTIFY is delivered when its transaction commits, in commit order.

CREATE TABLE carousel_changes (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    version  bigint  NOT NULL
);

ALTER TABLE lists ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- Existing lists: versions 1…N in key order; the counter continues from N.
UPDATE lists SET version = (SELECT count(*) FROM lists AS earlier WHERE earlier.key <= lists.key);
INSERT INTO carousel_changes (version) SELECT count(*) FROM lists;

CREATE FUNCTION carousel_next_version() RETURNS bigint LANGUAGE sql VOLATILE AS $$
    UPDATE carousel_changes SET version = version + 1 RETURNING version
$$;

-- A list made or renamed: a new version, told to every listening server.
CREATE FUNCTION carousel_list_versioned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.version := carousel_next_version();
    PERFORM pg_notify('carousel_changes', NEW.version::text);
    RETURN NEW;
END
$$;

CREATE TRIGGER lists_versioned BEFORE INSERT OR UPDATE OF name ON lists
    FOR EACH ROW EXECUTE FUNCTION carousel_list_versioned();

-- Lists deleted: the counter moves, so that every server lets them go.
CREATE FUNCTION carousel_lists_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('carousel_changes', carousel_next_version()::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER lists_deleted AFTER DELETE ON lists
    FOR EACH STATEMENT EXECUTE FUNCTION carousel_lists_deleted();
