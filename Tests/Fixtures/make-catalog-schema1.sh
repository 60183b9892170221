#!/usr/bin/env bash
# Writes catalog-schema1.sqlite: a catalog as a carousel knowing only
# migration 0001 left it, with data, for the upgrade test. Run once and
# commit the result; never regenerate it with a later schema.
set -euo pipefail
cd "$(dirname "$0")"
rm -f catalog-schema1.sqlite
sqlite3 catalog-schema1.sqlite <<SQL
$(cat ../../Migrations/0001_initial.sql)
INSERT INTO stores (key, id, name, latitude, longitude, address, category, phone, attributes) VALUES
  (1, 's1', 'Gangnam Station', 37.4979, 127.0276, '396 Gangnam-daero', 'cafe', '02-000-0001', '{"floor":"1"}'),
  (2, 's2', 'Jamsil', 37.5133, 127.1001, NULL, NULL, NULL, NULL),
  (3, 's3', 'Haeundae', 35.1587, 129.1604, NULL, 'beach', NULL, NULL),
  (4, 's4', 'Seomyeon', 35.1578, 129.0600, NULL, NULL, NULL, '{"note":"open late"}');
INSERT INTO lists (key, name) VALUES (1, 'seoul'), (2, 'south');
INSERT INTO list_items (list, position, store) VALUES
  (1, 0, 2), (1, 1, 1),
  (2, 0, 1), (2, 1, 4), (2, 2, 3);
PRAGMA user_version = 1;
SQL
sqlite3 catalog-schema1.sqlite "PRAGMA integrity_check; PRAGMA user_version; PRAGMA journal_mode"
