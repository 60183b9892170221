import ArgumentParser

extension Carousel {
    /// `carousel lists`: the store lists and their sizes.
    struct Lists: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lists",
            abstract: "List the store lists with their store counts."
        )

        @OptionGroup var database: DatabaseOptions

        @Flag(help: "Print JSON: [{\"name\", \"count\"}].")
        var json = false

        func run() throws {
            let lists = try database.openCatalogForReading().lists()
            if json {
                let items = lists.map { "{\"name\":\(StoreOutput.quoted($0.name)),\"count\":\($0.count)}" }
                print("[" + items.joined(separator: ",") + "]")
            } else if lists.isEmpty {
                print("No lists yet. Import one: carousel import FILE --list NAME")
            } else {
                var table = TextTable([.init(title: "list"), .init(title: "stores", alignment: .right)])
                for list in lists { table.append([list.name, String(list.count)]) }
                print(table.render())
            }
        }
    }
}
