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

    /// Reads both files; throws a one-line ``TLSFileError`` naming the file
    /// that failed, or both when the key is not the certificate's.
    public init(certificatePath: String, keyPath: String) throws {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        current = Mutex(try Self.read(certificatePath: certificatePath, keyPath: keyPath))
    }

    /// Reads both files again; on failure (a file that does not read, or a
    /// key that is not the certificate's) the pair held stays in use.
    public func reload() throws {
        let pair = try Self.read(certificatePath: certificatePath, keyPath: keyPath)
        current.withLock { $0 = pair }
    }

    /// The server's TLS configuration: the certificate from this store at
    /// each handshake, under ``profile(certificateChain:privateKey:)``.
    var configuration: TLSConfiguration {
        let (chain, key) = current.withLock { $0 }
        var configuration = Self.profile(certificateChain: chain, privateKey: key)
        configuration.sslContextCallback = { [self] _, promise in
            let (chain, key) = current.withLock { $0 }
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = chain.map { .certificate($0) }
            override.privateKey = .privateKey(key)
            promise.succeed(override)
        }
        return configuration
    }

    /// The versions and cipher suites the server accepts: the
    /// "intermediate" configuration of Mozilla's Server Side TLS guideline
    /// (https://wiki.mozilla.org/Security/Server_Side_TLS), as
    /// docs/production.md states it.
    ///
    /// - TLS 1.2 and 1.3 only. swift-nio-ssl's server default starts at
    ///   TLS 1.0, whose suites are all CBC with SHA-1 (RFC 8996 deprecates
    ///   TLS 1.0 and 1.1).
    /// - On TLS 1.2, ECDHE key exchange (forward secrecy) with an AEAD
    ///   cipher (AES-GCM, ChaCha20-Poly1305) only: no RSA key exchange, no
    ///   CBC, no SHA-1 MAC, all of which the default list offers. The
    ///   DHE-RSA suites some versions of the guideline list are left out:
    ///   BoringSSL implements no finite-field DHE.
    /// - TLS 1.3's suites (AES-GCM, ChaCha20-Poly1305, all AEAD with
    ///   forward secrecy, RFC 8446) are BoringSSL's fixed set and cannot be
    ///   configured.
    static func profile(certificateChain: [NIOSSLCertificate], privateKey: NIOSSLPrivateKey) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificateChain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = .tlsv12
        configuration.maximumTLSVersion = nil
        configuration.cipherSuiteValues = intermediateCipherSuites
        return configuration
    }

    /// Mozilla intermediate's TLS 1.2 suites that BoringSSL has, in its
    /// order (the server's order decides: ECDSA before RSA, AES-128 first).
    static let intermediateCipherSuites: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    static func read(certificatePath: String, keyPath: String) throws -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw TLSFileError(description: "cannot read the certificate chain \(certificatePath) as PEM: \(error)")
        }
        guard !chain.isEmpty else { throw TLSFileError(description: "\(certificatePath) holds no PEM certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw TLSFileError(description: "cannot read the private key \(keyPath) as PEM: \(error)")
        }
        // The key must be the leaf certificate's: a pair that does not match
        // reads fine, then fails every handshake. BoringSSL compares the
        // key with the leaf's public key when a context is given both
        // (SSL_CTX_use_PrivateKey, ssl_compare_public_and_private_key), so
        // a throwaway context checks it, under the profile served.
        do {
            _ = try NIOSSLContext(configuration: profile(certificateChain: chain, privateKey: key))
        } catch {
            throw TLSFileError(
                description: "the private key \(keyPath) does not match the certificate \(certificatePath) (\(error))",
                kind: .keyMismatch)
        }
        return (chain, key)
    }
}

/// A certificate or key file that cannot be used.
public struct TLSFileError: Error, CustomStringConvertible {
    /// What is wrong with the files.
    public enum Kind: Sendable, Hashable {
        /// A file is missing, unreadable or not PEM.
        case unreadable
        /// Both read, but the key is not the leaf certificate's.
        case keyMismatch
    }

    public var description: String
    public var kind: Kind

    /// `description` in one line: a library's error text may span several.
    public init(description: String, kind: Kind = .unreadable) {
        self.description = description.split(whereSeparator: \.isNewline).joined(separator: " ")
        self.kind = kind
    }
}
