-- 0011: a change log per list, for delta sync (issue 45).
--
-- A list is followed by a FEED, keyed by the list's name: an import, a
-- replace, a rename and a delete record in the same transaction, store by
-- store, what they changed of the list that name designates. The feed
-- outlives its list (a deleted list's feed ends in tombstones, so a device
-- that had it empties its copy) and a rename is a delete from one name's
-- feed and an import into the other's. Feeds are never dropped: a cursor
-- is signed with its feed's key (below), and a feed made again would make
-- an old cursor a forgery.
--
-- `feed_entries` holds ONE row per store id ever in the list: its last
-- change, at the sequence number of that change. This is CouchDB's
-- by-sequence index (`_changes`): a store changed twice appears once, at
-- its newer number, so the log is compacted as it is written and a full
-- download is the live rows in sequence order. A deleted store's row is a
-- tombstone (rank NULL), kept for the retention window, then purged; the
-- feed's `floor` then says which cursors may have missed one (410).
--
-- Sequence numbers are per feed, given in commit order: SQLite has one
-- writer, and every recording write reads and bumps `head` in its own
-- transaction.
CREATE TABLE change_feeds (
    key      INTEGER PRIMARY KEY,
    name     TEXT    NOT NULL UNIQUE,  -- the list name the feed follows
    k0       INTEGER NOT NULL,         -- SipHash key of the feed's cursors (random)
    k1       INTEGER NOT NULL,
    head     INTEGER NOT NULL DEFAULT 0,  -- the last sequence number given
    floor    INTEGER NOT NULL DEFAULT 0,  -- a cursor below it may have missed a purged tombstone
    checksum INTEGER NOT NULL DEFAULT 0,  -- wrapping sum of the live rows' item hashes
    live     INTEGER NOT NULL DEFAULT 0   -- how many live (non-tombstone) rows
);

CREATE TABLE feed_entries (
    feed    INTEGER NOT NULL,  -- change_feeds.key
    id      TEXT    NOT NULL,  -- the store's id
    seq     INTEGER NOT NULL,  -- the sequence number of its last change
    rank    INTEGER,           -- its order key in the list; NULL: a tombstone
    content INTEGER NOT NULL,  -- the hash of its content (0 for a tombstone)
    at      INTEGER NOT NULL,  -- Unix seconds of its last change
    PRIMARY KEY (feed, id)
) WITHOUT ROWID;

-- Pages of changes read in sequence order.
CREATE UNIQUE INDEX feed_entries_by_seq ON feed_entries (feed, seq);

-- Compaction finds the tombstones past the retention window without a
-- scan of the live rows (a partial index: live rows cost it nothing).
CREATE INDEX feed_tombstones ON feed_entries (feed, at) WHERE rank IS NULL;

-- The device side (CatalogSync's `CatalogReplica`): what a replica of a
-- server's list has received, and where it stands. The list the app reads
-- is written from these rows only when a sync reaches `upToDate` and the
-- checksum matches (PowerSync applies a bucket at a checkpoint the same
-- way), so the app never shows a mix of two versions of the list.
CREATE TABLE sync_replicas (
    list     TEXT    NOT NULL PRIMARY KEY,  -- the local list it writes
    source   TEXT    NOT NULL,              -- the server and its list, for messages
    cursor   TEXT,                          -- the last page's `next`; NULL before the first page
    checksum INTEGER NOT NULL DEFAULT 0,    -- wrapping sum of sync_entries' item hashes, kept per change
    complete INTEGER NOT NULL DEFAULT 0,    -- 1 when the local list is what `cursor` says
    rewrite  INTEGER NOT NULL DEFAULT 1     -- 1 when the local list must be written whole (not from sync_dirty)
);

-- The stores whose rows changed since the local list was last written,
-- with the rank each had then (NULL: not in the list). When every one
-- kept its rank, the local list is updated in place, store by store,
-- instead of written whole: a sync of 100 changed stores of 234,908.
CREATE TABLE sync_dirty (
    list     TEXT    NOT NULL,
    id       TEXT    NOT NULL,
    old_rank INTEGER,
    PRIMARY KEY (list, id)
) WITHOUT ROWID;

CREATE TABLE sync_entries (
    list       TEXT    NOT NULL,  -- sync_replicas.list
    id         TEXT    NOT NULL,
    rank       INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    latitude   REAL    NOT NULL,
    longitude  REAL    NOT NULL,
    address    TEXT,
    category   TEXT,
    phone      TEXT,
    attributes TEXT,
    PRIMARY KEY (list, id)
) WITHOUT ROWID;

CREATE INDEX sync_entries_by_rank ON sync_entries (list, rank);

-- Existing lists get their feeds from the catalog's code after this file
-- (Migration.swift: `then`): one live row per store, numbered in list
-- order, so that a download without a cursor gives every list whole and
-- every cursor starts at a number this feed gave.
