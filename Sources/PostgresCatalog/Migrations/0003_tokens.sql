-- 0003: the API tokens of `carousel serve`, as StoreCatalog's SQLite
-- migration 0006: a name, a scope, the SHA-256 of the token (never the
-- token), when it was made and last used (Unix seconds, the last use to
-- the minute).
CREATE TABLE api_tokens (
    name       text   NOT NULL PRIMARY KEY,
    scope      text   NOT NULL CHECK (scope IN ('read', 'write')),
    hash       bytea  NOT NULL UNIQUE CHECK (length(hash) = 32),
    created_at bigint NOT NULL,
    last_used  bigint
);
