#ifndef BASEMAP_TILES_H
#define BASEMAP_TILES_H

#include <stddef.h>

/// The bytes of basemap.mbtiles (an SQLite database: Natural Earth's
/// countries and capitals as vector tiles, zooms 0 to 4), compiled into
/// the binary and never freed.
const unsigned char *_Nonnull basemap_mbtiles_bytes(void);

/// How many bytes `basemap_mbtiles_bytes` holds.
size_t basemap_mbtiles_count(void);

#endif
