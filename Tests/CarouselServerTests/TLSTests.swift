import CarouselServer
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

/// HTTPS on a running server with a self-signed certificate made here by
/// the openssl command; a reload serves the new certificate to the next
/// handshake.
@Suite struct TLSTests {
    /// Runs `openssl` with `arguments` and standard input `input`; its output.
    @discardableResult
    static func openssl(_ arguments: [String], input: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A self-signed certificate for `name` (and 127.0.0.1) and its key.
    static func makeCertificate(_ name: String, certificate: URL, key: URL) throws {
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=\(name)", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", key.path, "-out", certificate.path,
        ])
    }

    /// The subject of the certificate the server at `port` shows now.
    static func servedSubject(port: Int) throws -> String {
        let text = try openssl(["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"], input: "")
        return text.split(separator: "\n").first { $0.hasPrefix("subject=") }.map(String.init) ?? text
    }

    @Test func servesHTTPSAndAReloadServesTheNewCertificate() async throws {
        let fixture = try ServerFixture()
        let certificate = fixture.directory.path("cert.pem"), key = fixture.directory.path("key.pem")
        try Self.makeCertificate("first.carousel.test", certificate: certificate, key: key)
        let tls = try TLSCertificates(certificatePath: certificate.path, keyPath: key.path)
        try await fixture.server.application(host: "127.0.0.1", port: 0, tls: tls).test(.ahc(.https)) { client in
            let port = try #require(client.port)
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
            let lists = try await client.execute(uri: "/lists", method: .get)
            #expect(String(buffer: lists.body).contains("seoul"))
            #expect(try Self.servedSubject(port: port).contains("first.carousel.test"))

            try Self.makeCertificate("second.carousel.test", certificate: certificate, key: key)
            try tls.reload()
            #expect(try Self.servedSubject(port: port).contains("second.carousel.test"))
            let afterReload = try await client.execute(uri: "/healthz", method: .get)
            #expect(afterReload.status == .ok)
        }
    }

    @Test func aMissingOrBadPEMIsAOneLineError() throws {
        let directory = try TemporaryDirectory("carousel-tls")
        let bad = directory.path("bad.pem")
        try Data("not a certificate".utf8).write(to: bad)
        #expect(throws: TLSFileError.self) { try TLSCertificates(certificatePath: bad.path, keyPath: bad.path) }
        do {
            _ = try TLSCertificates(certificatePath: directory.path("none.pem").path, keyPath: bad.path)
            Issue.record("a missing file was accepted")
        } catch {
            #expect("\(error)".contains("none.pem"))
            #expect(!"\(error)".contains("\n"))
        }
    }
}
