-- 0012: a feed's first version of a list, logged as a range over the list
-- itself (ChangeLog.Base, FeedBase.swift).
--
-- A first import used to write a `feed_entries` row per store: for the
-- 234,908 places, two B-trees of 234,908 entries and their bytes through
-- the commit and the checkpoint, which kept the import with the change
-- log over 1.2x the import without it. Now the feed records one range:
-- the store at position p of list `base_list` is its upsert number
-- `base_start + p + 1`, at rank (p + 1) * 2^20, stamped `base_at`; those
-- are the rows the import would have written, and pages read them from
-- the list's items. `feed_entries` then holds tombstones numbered at most
-- `base_start` and upserts numbered above `base_start + base_count` of
-- stores changed in place since (each hides its store's base entry).
-- Before any other write to the feed, or a delete of the list's rows, the
-- base is written out as rows and cleared (base_list NULL).
--
-- Feeds of migration 0011 are rows already and keep them. The feeds of
-- lists that have none (a catalog older than 0011) are started after this
-- file, with bases (Migration.swift: `then`), instead of after 0011's.
ALTER TABLE change_feeds ADD COLUMN base_list  INTEGER;            -- lists.key; NULL: no base
ALTER TABLE change_feeds ADD COLUMN base_start INTEGER NOT NULL DEFAULT 0;
ALTER TABLE change_feeds ADD COLUMN base_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE change_feeds ADD COLUMN base_at    INTEGER NOT NULL DEFAULT 0;
