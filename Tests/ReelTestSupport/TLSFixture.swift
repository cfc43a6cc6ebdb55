import Foundation
import NIOSSL

/// A self-signed certificate for 127.0.0.1 (and 127.0.0.2), made once per test process with
/// openssl in a private temporary folder: `HTTPFixtureServer(tls:)` serves https with it, and a
/// client that trusts `certificatePath` (Reel's `--ca-file`) accepts it.
public final class TLSFixture: Sendable {
    public let certificatePath: String
    public let privateKeyPath: String
    let context: NIOSSLContext

    /// The shared fixture; nil (with the reason printed) when openssl is missing or fails.
    public static let shared: TLSFixture? = {
        do { return try TLSFixture() } catch { print("TLSFixture: \(error)"); return nil }
    }()

    private init() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-tls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        certificatePath = dir.appendingPathComponent("cert.pem").path
        privateKeyPath = dir.appendingPathComponent("key.pem").path
        let r = ProcessRunner.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Reel test server",
            "-addext", "subjectAltName=IP:127.0.0.1,IP:127.0.0.2,DNS:localhost",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-keyout", privateKeyPath, "-out", certificatePath,
        ], timeout: 60)
        guard r.status == 0 else { throw NSError(domain: "TLSFixture", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: "openssl: \(r.stderr)"]) }
        let chain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        context = try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
    }
}
