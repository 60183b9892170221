import ArgumentParser
import CatalogServing
import StoreCatalog

extension Carousel {
    /// `carousel lists`: the store lists and their sizes; `rename` and `delete`.
    struct Lists: ParsableCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "lists",
            abstract: "List, rename or delete the store lists.",
            discussion: "Without a subcommand: the lists with their store counts (as `carousel lists show`).",
            subcommands: [Show.self, Rename.self, Delete.self],
            defaultSubcommand: Show.self
        )

        /// `carousel lists [show]`.
        struct Show: AsyncParsableCommand, ParsableCommandWithCatalog {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "List the store lists with their store counts.")

            @OptionGroup var database: DatabaseOptions

            @Flag(help: "Print JSON: [{\"name\", \"count\"}].")
            var json = false

            func run() async throws {
                let lists = try await database.openEngine(access: .read).lists()
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

        /// `carousel lists rename OLD NEW`.
        struct Rename: AsyncParsableCommand, ParsableCommandWithCatalog {
            static let configuration = CommandConfiguration(
                commandName: "rename", abstract: "Rename a store list; its stores and order stay.")

            @OptionGroup var database: DatabaseOptions

            @Argument(help: "The list's name.") var old: String
            @Argument(help: "Its new name (not taken by another list).") var new: String

            @Flag(help: "Print JSON: {\"renamed\", \"to\", \"count\"}.")
            var json = false

            func validate() throws {
                guard !new.allSatisfy(\.isWhitespace) else { throw ValidationError("the new name is blank") }
            }

            func run() async throws {
                let catalog = try await database.openEngine(access: .readWrite)
                try await catalog.renameList(old, to: new)
                let count = try await catalog.count(list: new)
                print(
                    json
                        ? "{\"renamed\":\(StoreOutput.quoted(old)),\"to\":\(StoreOutput.quoted(new)),\"count\":\(count)}"
                        : "Renamed list '\(old)' to '\(new)' (\(count) store\(count == 1 ? "" : "s")).".terminalEscaped)
            }
        }

        /// `carousel lists delete NAME`.
        struct Delete: AsyncParsableCommand, ParsableCommandWithCatalog {
            static let configuration = CommandConfiguration(
                commandName: "delete",
                abstract: "Delete a store list and its stores (other lists keep theirs, same ids included).",
                discussion: "Asks nothing: prints what it removed.")

            @OptionGroup var database: DatabaseOptions

            @Argument(help: "The list to delete.") var name: String

            @Flag(help: "Print JSON: {\"deleted\", \"count\", \"removedStores\"}.")
            var json = false

            func run() async throws {
                let deleted = try await database.openEngine(access: .readWrite).deleteList(name)
                if json {
                    print("{\"deleted\":\(StoreOutput.quoted(deleted.name)),\"count\":\(deleted.count),\"removedStores\":\(deleted.removedStores)}")
                } else {
                    let stores = "\(deleted.count) store\(deleted.count == 1 ? "" : "s")"
                    print("Deleted list '\(deleted.name)' (\(stores)).".terminalEscaped)
                }
            }
        }
    }
}
