-- 0006: API tokens for `carousel serve`.
--
-- Only a token's SHA-256 is kept: the token itself is shown once, when it
-- is made, and a copy of this file gives no one a credential. A random
-- token of 128 bits or more needs no salt or slow hash: nothing about it
-- can be guessed faster than by trying 2^128 values.
CREATE TABLE api_tokens (
    name       TEXT    NOT NULL PRIMARY KEY,
    -- 'read' or 'write' (a write token may read as well).
    scope      TEXT    NOT NULL CHECK (scope IN ('read', 'write')),
    -- SHA-256 of the token's UTF-8 bytes, 32 bytes.
    hash       BLOB    NOT NULL UNIQUE CHECK (length(hash) = 32),
    -- Unix seconds.
    created_at INTEGER NOT NULL,
    last_used  INTEGER
);
