-- 0002: no declared foreign keys, as in StoreCatalog's SQLite schema.
--
-- The catalog writes a list, its stores and its items together in one
-- transaction (an import, a replace, a delete), so the references hold by
-- construction. Checked, each row of an import cost PostgreSQL a lookup
-- through a trigger: of a 5.7 s import of the 234,908 GeoNames places, the
-- stores' reference to their list cost 1.0 s of the COPY, and the items'
-- two references 1.65 s of the 2.1 s that numbering the list took
-- (Benchmarks/scripts/postgres-import.sh; docs/benchmarks/2026-11-25.md).
ALTER TABLE stores DROP CONSTRAINT stores_list_fkey;
ALTER TABLE list_items DROP CONSTRAINT list_items_list_fkey;
ALTER TABLE list_items DROP CONSTRAINT list_items_store_fkey;
