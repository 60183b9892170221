import CarouselCommandLine

// `carousel`: every command, on SQLite catalogs. A command line that serves
// or names a postgres:// catalog runs in `carousel-net` instead
// (`NetworkFeatures` says why the two are apart).
Carousel.main(network: nil)
