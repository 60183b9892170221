-- 0005: stored cluster indexes (issue 26): a list's index is built once
-- per list version, by one node under an advisory lock, and read by the
-- others (and by every later CLI command) instead of built again.
--
-- One row per list, version and clustering options: the whole index as
-- Clustering's `ClusterIndex.bytes()`. A replaced list has a new key, and
-- a renamed one a new version, so a row is never read for data it was not
-- built from; the rows of lists that are gone are deleted when the next
-- index is stored.
CREATE TABLE cluster_indexes (
    list    bigint NOT NULL,
    version bigint NOT NULL,
    options text   NOT NULL,
    bytes   bytea  NOT NULL,
    PRIMARY KEY (list, version, options)
);
