import NIOCore
import NIOSSL
import Synchronization

/// The certificate chain and private key `serve --tls-cert/--tls-key`
/// serves HTTPS and WSS with, read from PEM files and read again by
/// ``reload()`` (on SIGHUP): every handshake after it uses the new pair,
/// connections already open keep theirs.
///
/// How: swift-nio-ssl asks `configuration`'s context callback for the
/// certificate at each ClientHello; it answers with the pair held now.
public final class TLSCertificates: Sendable {
    public let certificatePath: String
    public let keyPath: String
    private let current: Mutex<(chain: [NIOSSLCertificate], key: NIOSSLPrivateKey)>

    /// Reads both files; throws a one-line error naming the file that failed.
    public init(certificatePath: String, keyPath: String) throws {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        current = Mutex(try Self.read(certificatePath: certificatePath, keyPath: keyPath))
    }

    /// Reads both files again; on failure the pair held stays in use.
    public func reload() throws {
        let pair = try Self.read(certificatePath: certificatePath, keyPath: keyPath)
        current.withLock { $0 = pair }
    }

    /// The server's TLS configuration: TLS 1.2 or later (swift-nio-ssl's
    /// default), the certificate from this store at each handshake.
    var configuration: TLSConfiguration {
        let (chain, key) = current.withLock { $0 }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.sslContextCallback = { [self] _, promise in
            let (chain, key) = current.withLock { $0 }
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = chain.map { .certificate($0) }
            override.privateKey = .privateKey(key)
            promise.succeed(override)
        }
        return configuration
    }

    static func read(certificatePath: String, keyPath: String) throws -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw TLSFileError(description: "cannot read the certificate chain \(certificatePath) as PEM: \(error)")
        }
        guard !chain.isEmpty else { throw TLSFileError(description: "\(certificatePath) holds no PEM certificate") }
        do {
            return (chain, try NIOSSLPrivateKey(file: keyPath, format: .pem))
        } catch {
            throw TLSFileError(description: "cannot read the private key \(keyPath) as PEM: \(error)")
        }
    }
}

/// A certificate or key file that cannot be used.
public struct TLSFileError: Error, CustomStringConvertible {
    public var description: String
}
