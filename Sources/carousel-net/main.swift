import CarouselCommandLine

// `carousel-net`: the same commands as `carousel`, with the server and the
// PostgreSQL client linked in. `carousel` hands it the command lines that
// need them; it runs any other just as `carousel` does.
Carousel.main(network: NetworkStack())
