-- 0006: nearest stores of one list without walking the other lists'
-- stores (issue 26; issue 25's "restricted to one list").
--
-- A KNN scan of `stores_point` filtered by list reads every nearer store
-- of every list first: from a point far from a small list, most of the
-- table. A GiST index on (list, point) orders one list's stores by
-- distance; btree_gist gives GiST the equality on `list`. It ships with
-- PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13: a
-- database owner may create it, no superuser needed.
-- https://www.postgresql.org/docs/15/btree-gist.html
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE INDEX stores_list_point ON stores USING gist (list, point);
