-- 0001: the catalog on PostgreSQL + PostGIS (issue 26), the same data as
-- StoreCatalog's SQLite schema at its migration 0009.
--
-- Keys are assigned by the importer as SQLite does (max + 1, in file
-- order), so that "ties by store key" orders the same stores the same way
-- on both engines.

CREATE TABLE lists (
    key       bigint PRIMARY KEY,
    name      text   NOT NULL UNIQUE,
    time_zone text
);

-- A store belongs to one list; its id is unique within that list (as
-- StoreCatalog's migration 0005).
CREATE TABLE stores (
    key        bigint           PRIMARY KEY,
    list       bigint           NOT NULL REFERENCES lists (key) ON DELETE CASCADE,
    id         text             NOT NULL,
    name       text             NOT NULL,
    latitude   double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude  double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    address    text,
    category   text,
    phone      text,
    attributes jsonb,
    -- For KNN (`<->`) and radius searches. ST_MakePoint is immutable, so
    -- the column can be generated: COPY sends the coordinates once.
    -- https://postgis.net/docs/geography_distance_knn.html
    point      geography(Point, 4326) NOT NULL
               GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography) STORED,
    -- The SQLite spatial index's latitude band (1/64°, StoreCatalog's
    -- migration 0004): a bounding box is scanned and ordered as there.
    band       bigint           NOT NULL GENERATED ALWAYS AS (trunc((latitude + 90.0) * 64.0)::bigint) STORED,
    UNIQUE (list, id)
);

CREATE INDEX stores_point ON stores USING gist (point);
CREATE INDEX stores_band ON stores (band, longitude, latitude, key);

-- A list's stores by position: positions are dense from 0, so a list's
-- count is its last position + 1, and a store at a position one seek.
CREATE TABLE list_items (
    list     bigint  NOT NULL REFERENCES lists (key) ON DELETE CASCADE,
    position integer NOT NULL,
    store    bigint  NOT NULL REFERENCES stores (key) ON DELETE CASCADE,
    PRIMARY KEY (list, position)
);

-- The great-circle distance in meters as StoreCatalog's `DistanceFrom`
-- computes it (haversine, R = 6,371,008.8 m, the same operations in the
-- same order), for the distance order of an import.
CREATE FUNCTION carousel_haversine(lat1 double precision, lon1 double precision,
                                   lat2 double precision, lon2 double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT 2 * 6371008.8 * asin(least(1, sqrt(
        sin((lat2 * pi() / 180 - lat1 * pi() / 180) / 2) ^ 2
        + cos(lat1 * pi() / 180) * cos(lat2 * pi() / 180) * sin((lon2 * pi() / 180 - lon1 * pi() / 180) / 2) ^ 2)))
$$;
