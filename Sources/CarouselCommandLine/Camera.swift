import ArgumentParser
import CarouselJSON
import Clustering
import Foundation
import Locks
import MapCamera
import MapSync

extension Carousel {
    /// `carousel camera`: the framed camera for one store, and the
    /// transition to it from a given camera.
    struct Camera: ParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "camera",
            abstract: "The map camera for one store, framed for the map the carousel covers.",
            discussion: """
                Frames store I of the list on a --map-width × --map-height map (default 390 × 844) whose \
                edges --insets T,L,B,R covers: --framing center (the store at the view's centre, the \
                default), inset (the store at the centre of the visible rect), fit (the store and \
                --neighbors cards on each side in view, --fit-padding to spare) or keep (no move while \
                the --from camera shows the store --keep-margin inside the visible rect). With \
                --from LAT,LNG,ZOOM, also how the map gets there: MapLibre's flyTo timing (van Wijk & \
                Nuij, ρ 1.42, 1.2 screenfuls/s), a jump past --max-duration-ms; without, none.
                --json prints {"index","storeId","latitude","longitude","zoom","target":{"latitude",\
                "longitude"},"padding":{"top","left","bottom","right"},"animation":{"kind","durationMs"}}; \
                latitude and longitude are the view's centre. fit takes neighbours in list order, \
                clipped at its ends.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The store list.")
        var list: String

        @Option(parsing: .unconditional, help: ArgumentHelp("The store's position in the list, from 0.", valueName: "I"))
        var index: Int

        @Option(parsing: .unconditional, help: "The zoom for one store (default 16).")
        var zoom: Double?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The camera the map shows now: centre and zoom.", valueName: "LAT,LNG,ZOOM"))
        var from: String?

        @OptionGroup(title: "Map")
        var map: MapOptions

        @Flag(help: "Zoom at least to the store's uncluster zoom (see `carousel clusters --uncluster-zoom`), so it is never hidden in a marker cluster.")
        var uncluster = false

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            var base = MapFraming()
            base.zoom = zoom ?? base.zoom
            let framing = try MapOptions.validated(try map.applied(to: base))
            let current = try from.map { try Self.parseViewpoint($0, for: framing) }

            let catalog = try database.openEngineWaiting(access: .read)
            let stores = try WaitingStoreDirectory(engine: catalog, list: list)
            guard (0..<stores.count).contains(index) else {
                throw CLIError(
                    "--index \(index) is out of range: "
                        + (stores.count == 0
                            ? "the list '\(list)' is empty"
                            : "the list '\(list)' has \(stores.count) store\(stores.count == 1 ? "" : "s") (0...\(stores.count - 1))"))
            }
            let pin = try stores.pin(at: index)
            var neighbors: [Coordinate] = []
            if framing.mode == .fit {
                for other in framing.fitIndices(around: index, count: stores.count, wrapping: false) where other != index {
                    let neighbor = try stores.pin(at: other)
                    neighbors.append(Coordinate(latitude: neighbor.latitude, longitude: neighbor.longitude))
                }
            }
            let store = Coordinate(latitude: pin.latitude, longitude: pin.longitude)
            // nil only in keep mode with a --from camera that shows the store:
            // the camera stays where it is.
            // The clustering's zoom levels are supercluster's, as the map's.
            let floor =
                uncluster
                ? Double(
                    try Blocking.wait { [list, index] in
                        try await catalog.unclusterZoom(list: list, position: index, options: ClusterOptions())
                    }) : nil
            let move = framing.frame(store, fitting: neighbors, from: current, atLeastZoom: floor)
            let framed =
                move
                ?? FramedCamera(
                    viewpoint: current!, target: store, padding: framing.insets, span: framing.span(at: current!))
            let camera = CameraPosition(
                index: index, pin: pin, framed: framed, animation: framing.transition(from: current, to: framed.viewpoint))

            if json {
                print(CameraJSON.object(camera))
                return
            }
            let name = try stores.store(at: index).name
            print("#\(index) \(name) (\(pin.id)) at \(NumberFormatting.coordinate(pin.latitude)), \(NumberFormatting.coordinate(pin.longitude))")
            print(
                move != nil
                    ? "framing \(framing.mode.rawValue): \(CameraJSON.words(camera))"
                    : "framing keep: the store is in view, the camera stays at \(CameraJSON.words(camera).dropFirst("camera to ".count))")
            print(
                "target \(NumberFormatting.computedCoordinate(camera.target.latitude)), \(NumberFormatting.computedCoordinate(camera.target.longitude)) "
                    + "with padding top \(NumberFormatting.rounded(camera.padding.top)), left \(NumberFormatting.rounded(camera.padding.left)), "
                    + "bottom \(NumberFormatting.rounded(camera.padding.bottom)), right \(NumberFormatting.rounded(camera.padding.right))")
        }

        /// `LAT,LNG,ZOOM`: a coordinate and a zoom within the framing's range.
        static func parseViewpoint(_ text: String, for framing: MapFraming) throws -> MapViewpoint {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 3, let latitude = parts[0], let longitude = parts[1], let zoom = parts[2] else {
                throw CLIError("--from must be LAT,LNG,ZOOM, three numbers, e.g. 37.4979,127.0276,15 (got '\(text)')")
            }
            let viewpoint = MapViewpoint(center: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom)
            do {
                try MapFraming.checkCoordinate(viewpoint.center, named: "--from")
                try framing.checkZoom(zoom, named: "--from zoom")
            } catch {
                throw CLIError(error.description)
            }
            return viewpoint
        }
    }
}
