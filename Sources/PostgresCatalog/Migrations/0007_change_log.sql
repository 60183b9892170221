-- 0007: a change log per list, for delta sync (issue 45): the SQLite
-- catalog's migration 0011, on PostgreSQL (its comments say why the
-- tables are these). Existing lists get their feeds from the catalog's
-- code in the same transaction, after this file (Migration.swift: `then`):
-- a store's content hash is computed in Swift, where both engines compute
-- it alike.
--
-- Sequence numbers are given in commit order: every write that records
-- changes takes its feed's row with SELECT … FOR UPDATE before reading
-- `head`, and holds the lock until it commits. A writer that started
-- later and would commit first waits for the lock instead of taking a
-- higher number and committing it before a lower one, which a reader
-- would pass and never come back to (airbyte #9668: a cursor on a column
-- given at the start of a transaction skips rows committed out of order).

CREATE TABLE change_feeds (
    key      bigserial PRIMARY KEY,
    name     text      NOT NULL UNIQUE,
    k0       bigint    NOT NULL,
    k1       bigint    NOT NULL,
    head     bigint    NOT NULL DEFAULT 0,
    floor    bigint    NOT NULL DEFAULT 0,
    checksum bigint    NOT NULL DEFAULT 0,
    live     bigint    NOT NULL DEFAULT 0
);

CREATE TABLE feed_entries (
    feed    bigint NOT NULL,
    id      text   NOT NULL,
    seq     bigint NOT NULL,
    rank    bigint,
    content bigint NOT NULL,
    at      bigint NOT NULL,
    PRIMARY KEY (feed, id)
);

CREATE UNIQUE INDEX feed_entries_by_seq ON feed_entries (feed, seq);
CREATE INDEX feed_tombstones ON feed_entries (feed, at) WHERE rank IS NULL;
