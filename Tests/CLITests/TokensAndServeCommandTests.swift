import Foundation
import TestSupport
import Testing

/// `carousel tokens` and `carousel serve`'s production options: the token
/// is printed once and never again, bad options are one-line errors, and
/// the server stops with status 0 on SIGTERM.
@Suite struct TokensAndServeCommandTests {
    typealias Workspace = CatalogCommandTests.Workspace

    @Test func aTokenIsPrintedOnceAndListedWithoutIt() throws {
        let workspace = try Workspace()
        let created = try workspace.run(["tokens", "create", "ci", "--scope", "write"])
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .newlines)
        #expect(created.stdout == token + "\n", "the token alone on stdout")
        #expect(token.hasPrefix("crsl_") && token.count == 48)
        #expect(token.dropFirst(5).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let second = try workspace.run(["tokens", "create", "web"])
        #expect(second.stdout.trimmingCharacters(in: .newlines) != token)

        let list = try workspace.run(["tokens", "list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("ci") && list.stdout.contains("write") && list.stdout.contains("never"))
        #expect(list.stdout.contains("web") && list.stdout.contains("read"))
        #expect(!list.stdout.contains(token))
        let json = try #require(try CatalogCommandTests.json(try workspace.run(["tokens", "list", "--json"]).stdout) as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["ci", "web"])
        #expect(json.first?["lastUsed"] is NSNull)

        let again = try workspace.run(["tokens", "create", "ci"])
        CatalogCommandTests.expectUserError(again, mentioning: "a token named 'ci' exists")
        #expect(try workspace.run(["tokens", "revoke", "ci"]).status == 0)
        CatalogCommandTests.expectUserError(try workspace.run(["tokens", "revoke", "ci"]), mentioning: "no token named 'ci'")
        CatalogCommandTests.expectUserError(try workspace.run(["tokens", "create", "x", "--scope", "admin"]), mentioning: "admin")
    }

    @Test func badServeOptionsAreOneLineErrorsFromFlagsAndEnvironment() throws {
        let workspace = try Workspace()
        for (arguments, environment, message) in [
            (["--rate-limit", "0"], [:], "--rate-limit must be in 1...1000000 (got 0)"),
            ([], ["CAROUSEL_RATE_LIMIT": "lots"], "CAROUSEL_RATE_LIMIT must be a whole number"),
            ([], ["CAROUSEL_MAX_SESSIONS": "-1"], "CAROUSEL_MAX_SESSIONS must be a whole number in 0...1000000"),
            (["--cache-max-age", "-5"], [:], "--cache-max-age must be in 0...31536000"),
            ([], ["CAROUSEL_PORT": "70000"], "CAROUSEL_PORT must be a whole number in 0...65535"),
            (["--tls-cert", "x.pem"], [:], "--tls-cert needs --tls-key"),
            (["--cors-origin", "app.example"], [:], "--cors-origin must be * or scheme://host[:port]"),
            ([], ["CAROUSEL_LOG_FORMAT": "xml"], "CAROUSEL_LOG_FORMAT must be text or json"),
            ([], ["CAROUSEL_REQUIRE_TOKEN_FOR_READS": "maybe"], "CAROUSEL_REQUIRE_TOKEN_FOR_READS must be 1 or 0"),
            (["--tls-cert", "/nonexistent.pem", "--tls-key", "/nonexistent.key"], [:], "/nonexistent.pem"),
            (["--db-connections", "0"], [:], "--db-connections must be in 1...262143 (got 0)"),
            ([], ["CAROUSEL_DB_CONNECTIONS": "many"], "CAROUSEL_DB_CONNECTIONS must be a whole number"),
        ] as [([String], [String: String], String)] {
            // `--port 0` keeps a server that wrongly started off a fixed port;
            // the flag would override CAROUSEL_PORT, so that case goes without.
            let port = environment["CAROUSEL_PORT"] == nil ? ["--port", "0"] : []
            let result = try workspace.run(["serve"] + port + arguments, environment: environment)
            #expect(result.status != 0 && result.status < 128, "\(arguments) \(environment): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        let help = try CarouselProcess.run(["serve", "--help"])
        for name in [
            "CAROUSEL_REQUIRE_TOKEN_FOR_READS", "CAROUSEL_CORS_ORIGIN", "CAROUSEL_PUBLIC_HOST", "CAROUSEL_CACHE_MAX_AGE",
            "CAROUSEL_RATE_LIMIT", "CAROUSEL_MAX_SESSIONS", "CAROUSEL_SESSION_IDLE_TIMEOUT", "CAROUSEL_REQUEST_TIMEOUT",
            "CAROUSEL_SHUTDOWN_GRACE", "CAROUSEL_TLS_CERT", "CAROUSEL_TLS_KEY", "CAROUSEL_LOG_FORMAT", "CAROUSEL_HOST", "CAROUSEL_PORT",
            "CAROUSEL_DB_CONNECTIONS",
        ] {
            #expect(help.stdout.contains(name), "\(name) not in serve --help")
        }
    }

    /// Runs `openssl` with `arguments`; whether it succeeded.
    static func openssl(_ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Issue 42: a TLS key that is not the certificate's is one line and
    /// exit 64 before anything listens; a `CAROUSEL_DB` whose password
    /// holds a '/' is refused without showing it.
    @Test func aKeyThatIsNotTheCertificatesOrAnUnparsableURLIsOneLineWithoutSecrets() throws {
        let workspace = try Workspace()
        let certificate = workspace.directory.path("cert.pem").path
        let key = workspace.directory.path("key.pem").path, other = workspace.directory.path("other.pem").path
        let curve = ["-pkeyopt", "ec_paramgen_curve:P-256"]
        try #require(
            try Self.openssl(
                ["req", "-x509", "-newkey", "ec"] + curve + ["-nodes", "-days", "1", "-subj", "/CN=a", "-keyout", key, "-out", certificate]))
        try #require(try Self.openssl(["genpkey", "-algorithm", "EC"] + curve + ["-out", other]))
        let mismatched = try workspace.run(["serve", "--port", "0", "--tls-cert", certificate, "--tls-key", other])
        #expect(mismatched.status == 64, "\(mismatched.stderr)")
        #expect(mismatched.stderr.split(separator: "\n").count == 1, "\(mismatched.stderr)")
        #expect(mismatched.stderr.contains("the private key \(other) does not match the certificate"), "\(mismatched.stderr)")

        let url = "postgres://u:base64Pw/abc+def==@127.0.0.1:5432/db"
        for result in [
            try CarouselProcess.run(["serve", "--port", "0"], environment: ["CAROUSEL_DB": url]),
            try CarouselProcess.run(["--db", url, "lists"]),
        ] {
            #expect(result.status == 64, "\(result.stderr)")
            #expect(
                result.stderr
                    == "Error: not a PostgreSQL URL: postgres://u:***@127.0.0.1:5432/db: "
                    + "a '/' or '?' in the password, or an '@' after the host, must be percent-encoded (%2F, %3F, %40)\n")
        }
    }

    @Test func onANonLoopbackAddressItWarnsAndSIGTERMExitsZero() throws {
        let workspace = try Workspace()
        let serve = try ServeProcess(
            ["--db", workspace.db, "--port", "0"], environment: ["CAROUSEL_HOST": "0.0.0.0", "CAROUSEL_LOG_FORMAT": "json"],
            log: workspace.directory.path("serve.log"))
        let process = serve.process
        serve.waitUntilServing()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let text = serve.text
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(text)")
        let lines = text.split(separator: "\n")
        #expect(
            lines.filter {
                $0.hasPrefix(
                    "carousel: serving on 0.0.0.0, not loopback: writes disabled (no write token; `carousel tokens create NAME --scope write` makes one), TLS off"
                )
            }.count == 1, "\(text)")
        // The rest is JSON, one object a line.
        let serving = try #require(lines.first { $0.contains("carousel serving") })
        let object = try JSONSerialization.jsonObject(with: Data(serving.utf8)) as? [String: Any]
        #expect(object?["level"] as? String == "info")
    }
}
