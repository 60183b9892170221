// The places this module's API speaks of (Coordinate, BoundingBox,
// WebMercator, StorePin…) are the Geo module's: importing this module
// brings them along, as one vocabulary across the package.
@_exported import Geo
