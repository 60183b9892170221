import ArgumentParser
import CatalogServing
import Foundation
import StoreCatalog

extension Carousel {
    /// `carousel tokens create|list|revoke`: the API tokens `carousel serve`
    /// accepts. The catalog keeps only their SHA-256.
    struct Tokens: ParsableCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "tokens",
            abstract: "Create, list or revoke the API tokens of `carousel serve`.",
            discussion: """
                Writes to the server (POST /lists/{name}/import) need a write token, sent as \
                Authorization: Bearer TOKEN; with no write token in the catalog the server takes \
                no writes. Reads need a read token only under `serve --require-token-for-reads`.
                """,
            subcommands: [Create.self, List.self, Revoke.self])

        /// `carousel tokens create NAME [--scope read|write]`.
        struct Create: AsyncParsableCommand, ParsableCommandWithCatalog {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "Make a token and print it, alone on stdout: it is shown this once.")

            @OptionGroup var database: DatabaseOptions
            @Argument(help: "A name for the token (who or what holds it).") var name: String
            @Option(help: "read: reads only; write: imports, and reads.") var scope: TokenScope = .read

            func run() async throws {
                let token = try await database.openEngine(access: .readWrite).createToken(named: name, scope: scope)
                print(token)
            }
        }

        /// `carousel tokens list`.
        struct List: AsyncParsableCommand, ParsableCommandWithCatalog {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "Show each token's name, scope, creation and last use (never the token).")

            @OptionGroup var database: DatabaseOptions
            @Flag(help: "Print JSON: [{\"name\", \"scope\", \"created\", \"lastUsed\"}].") var json = false

            func run() async throws {
                let tokens = try await database.openEngine(access: .read).tokens()
                let formatter = ISO8601DateFormatter()
                if json {
                    let items = tokens.map { token in
                        "{\"name\":\(StoreOutput.quoted(token.name)),\"scope\":\"\(token.scope.rawValue)\","
                            + "\"created\":\"\(formatter.string(from: token.created))\","
                            + "\"lastUsed\":\(token.lastUsed.map { "\"\(formatter.string(from: $0))\"" } ?? "null")}"
                    }
                    print("[" + items.joined(separator: ",") + "]")
                } else if tokens.isEmpty {
                    print("No tokens: the server takes no writes. Make one: carousel tokens create NAME --scope write")
                } else {
                    var table = TextTable([.init(title: "name"), .init(title: "scope"), .init(title: "created"), .init(title: "last used")])
                    for token in tokens {
                        table.append([
                            token.name.terminalEscaped, token.scope.rawValue, formatter.string(from: token.created),
                            token.lastUsed.map { formatter.string(from: $0) } ?? "never",
                        ])
                    }
                    print(table.render())
                }
            }
        }

        /// `carousel tokens revoke NAME`.
        struct Revoke: AsyncParsableCommand, ParsableCommandWithCatalog {
            static let configuration = CommandConfiguration(
                commandName: "revoke", abstract: "Revoke a token: the server refuses it from its next request on.")

            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The token's name.") var name: String

            func run() async throws {
                try await database.openEngine(access: .readWrite).revokeToken(named: name)
                print("Revoked token '\(name)'.".terminalEscaped)
            }
        }
    }
}

extension TokenScope: ExpressibleByArgument {}
