import CarouselServer
import Foundation
import HummingbirdTesting
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import TestSupport
import Testing

/// HTTPS on a running server with a self-signed certificate made here by
/// the openssl command; a reload serves the new certificate to the next
/// handshake, and refuses a key that is not the certificate's. A client of
/// the test's own (swift-nio-ssl) offers the server old versions and
/// suites, which it must refuse.
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

    /// A self-signed certificate for `name` (and 127.0.0.1) and its key:
    /// ECDSA P-256, or RSA when `rsa` (for the suites of RSA certificates).
    static func makeCertificate(_ name: String, certificate: URL, key: URL, rsa: Bool = false) throws {
        let keyKind = rsa ? ["-newkey", "rsa:2048"] : ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        try openssl(
            ["req", "-x509"] + keyKind + [
                "-nodes", "-days", "1", "-subj", "/CN=\(name)", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", key.path, "-out", certificate.path,
            ])
    }

    /// Completes `outcome` with the end of the TLS handshake: success, or
    /// the first error or the close before it.
    final class HandshakeWatcher: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let outcome: EventLoopPromise<Void>
        /// Only the first end counts (the handler runs on its channel's loop).
        private var ended = false

        init(_ outcome: EventLoopPromise<Void>) { self.outcome = outcome }

        private func end(_ result: Result<Void, any Error>) {
            guard !ended else { return }
            ended = true
            outcome.completeWith(result)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted = event { end(.success(())) }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            end(.failure(error))
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            end(.failure(ChannelError.eof))
            context.fireChannelInactive()
        }
    }

    /// A TLS handshake with the server on `port` by a client that offers
    /// only TLS `minimum` to `maximum` and, when given, only `suites`;
    /// throws when the server refuses it. The certificate is not checked:
    /// what is tested is what the server agrees to.
    static func handshake(
        port: Int, minimum: TLSVersion = .tlsv1, maximum: TLSVersion? = nil, suites: [NIOTLSCipher]? = nil
    ) async throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        configuration.minimumTLSVersion = minimum
        configuration.maximumTLSVersion = maximum
        if let suites { configuration.cipherSuiteValues = suites }
        let context = try NIOSSLContext(configuration: configuration)
        let group = MultiThreadedEventLoopGroup.singleton
        let outcome = group.any().makePromise(of: Void.self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                    try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(outcome))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        // A bound on the wait, not a timed assertion: a local handshake
        // ends at once either way; a server that answered nothing for this
        // long would fail the test by closing, as a refusal does.
        let bound = channel.eventLoop.scheduleTask(in: .seconds(60)) { channel.close(promise: nil) }
        defer {
            bound.cancel()
            channel.close(promise: nil)
        }
        try await outcome.futureResult.get()
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

    /// TLS 1.0 and 1.1 are refused (RFC 8996 deprecates both; Mozilla's
    /// intermediate configuration starts at 1.2); 1.2 and 1.3 are served.
    @Test func refusesTLS10And11() async throws {
        let fixture = try ServerFixture()
        let certificate = fixture.directory.path("cert.pem"), key = fixture.directory.path("key.pem")
        try Self.makeCertificate("versions.carousel.test", certificate: certificate, key: key)
        let tls = try TLSCertificates(certificatePath: certificate.path, keyPath: key.path)
        try await fixture.server.application(host: "127.0.0.1", port: 0, tls: tls).test(.ahc(.https)) { client in
            let port = try #require(client.port)
            for (minimum, maximum) in [(TLSVersion.tlsv1, TLSVersion.tlsv1), (.tlsv11, .tlsv11), (.tlsv1, .tlsv11)] {
                await #expect(throws: (any Error).self, "\(minimum)...\(maximum) was accepted") {
                    try await Self.handshake(port: port, minimum: minimum, maximum: maximum)
                }
            }
            try await Self.handshake(port: port, minimum: .tlsv12, maximum: .tlsv12)
            try await Self.handshake(port: port, minimum: .tlsv13, maximum: .tlsv13)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    /// On TLS 1.2 only ECDHE (forward secrecy) with AES-GCM or
    /// ChaCha20-Poly1305: RSA key exchange and CBC suites are refused, for
    /// an RSA certificate (which RSA key exchange needs) and an ECDSA one.
    @Test func offersOnlyForwardSecretAEADSuitesOnTLS12() async throws {
        for rsa in [true, false] {
            let fixture = try ServerFixture()
            let certificate = fixture.directory.path("cert.pem"), key = fixture.directory.path("key.pem")
            try Self.makeCertificate("suites.carousel.test", certificate: certificate, key: key, rsa: rsa)
            let tls = try TLSCertificates(certificatePath: certificate.path, keyPath: key.path)
            let refused: [NIOTLSCipher] =
                rsa
                ? [
                    .TLS_RSA_WITH_AES_128_CBC_SHA, .TLS_RSA_WITH_AES_256_CBC_SHA, .TLS_RSA_WITH_AES_128_GCM_SHA256,
                    .TLS_RSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
                ]
                : [.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA]
            let served: [NIOTLSCipher] =
                rsa
                ? [
                    .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
                    .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
                ]
                : [
                    .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
                    .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
                ]
            try await fixture.server.application(host: "127.0.0.1", port: 0, tls: tls).test(.ahc(.https)) { client in
                let port = try #require(client.port)
                for suite in refused {
                    await #expect(throws: (any Error).self, "\(suite) was accepted (RSA certificate: \(rsa))") {
                        try await Self.handshake(port: port, minimum: .tlsv12, maximum: .tlsv12, suites: [suite])
                    }
                }
                for suite in served {
                    await #expect(throws: Never.self, "\(suite) was refused (RSA certificate: \(rsa))") {
                        try await Self.handshake(port: port, minimum: .tlsv12, maximum: .tlsv12, suites: [suite])
                    }
                }
            }
        }
    }

    /// A key that is not the certificate's is refused as the pair is read,
    /// at start and on reload: the reload throws one line and the pair in
    /// use stays, so handshakes keep working.
    @Test func aKeyThatIsNotTheCertificatesIsRefusedAndTheOldPairKept() async throws {
        let fixture = try ServerFixture()
        let certificate = fixture.directory.path("cert.pem"), key = fixture.directory.path("key.pem")
        try Self.makeCertificate("kept.carousel.test", certificate: certificate, key: key)
        let tls = try TLSCertificates(certificatePath: certificate.path, keyPath: key.path)
        try await fixture.server.application(host: "127.0.0.1", port: 0, tls: tls).test(.ahc(.https)) { client in
            let port = try #require(client.port)
            #expect(try Self.servedSubject(port: port).contains("kept.carousel.test"))

            // Another key over the certificate's: both files read as PEM.
            try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path])
            do {
                try tls.reload()
                Issue.record("a key that is not the certificate's was reloaded")
            } catch let error as TLSFileError {
                #expect(error.kind == .keyMismatch)
                #expect(error.description.contains(key.path), "\(error)")
                #expect(error.description.contains("does not match"), "\(error)")
                #expect(!error.description.contains("\n"))
            }
            #expect(try Self.servedSubject(port: port).contains("kept.carousel.test"))
            try await Self.handshake(port: port, minimum: .tlsv12)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)

            // As at start.
            #expect(throws: TLSFileError.self) { try TLSCertificates(certificatePath: certificate.path, keyPath: key.path) }
        }
    }
}
