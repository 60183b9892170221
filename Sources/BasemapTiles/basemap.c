// The MBTiles file as a C array, through C23's #embed. SwiftPM's
// `.embedInCode` writes a resource as a Swift `[UInt8]` literal, and for
// this 298 KB file the Swift compiler took 105 s of CPU and 2.2 GB of
// memory in a debug build, 275 to 390 s on the clock (Swift 6.3.1, alone
// in a package of its own, on a loaded 2-core machine); clang compiles
// this file in 0.05 s. clang's dependency file lists
// the embedded file, so a new basemap rebuilds this target.
#include "BasemapTiles.h"

// #embed is C23; clang accepts it in the C mode SwiftPM picks and only
// warns that it is an extension there.
#pragma clang diagnostic ignored "-Wc23-extensions"

// A compiler without #embed would stop at it with a less telling error.
#if !defined(__has_embed)
#error "BasemapTiles needs C23's #embed: clang 19 or later (the Swift 6 toolchains' clang has it)"
#endif

static const unsigned char basemap_mbtiles[] = {
#embed "basemap.mbtiles"
};

const unsigned char *basemap_mbtiles_bytes(void) { return basemap_mbtiles; }

size_t basemap_mbtiles_count(void) { return sizeof basemap_mbtiles; }
