// The MBTiles file as a C array, through C23's #embed. SwiftPM's
// `.embedInCode` writes a resource as a Swift `[UInt8]` literal, and for
// this 300 KB file the Swift compiler took 390 s and 2.2 GB in a debug
// build (measured with Swift 6.3.1 on the 2-core CI machine); clang reads
// the same bytes in well under a second. clang's dependency file lists
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
