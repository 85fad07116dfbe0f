import Foundation
import SteppieHTTP
import SteppieSync
import SteppieSyncHTTP
import Testing

/// `GET /sync/v1/copy/<name>/<offset>` (docs/sync.md, "HTTP mapping") against a real HTTPS server
/// on loopback: a file longer than two pieces arrives whole in 4 MiB pieces from any offset; an
/// unknown credential is 401, another device's file 404, a name or offset that cannot be read 409.
@Suite struct SyncCopyRouteTests {
    /// One file of 10 MiB for the credential `mine`.
    final class Copies: SyncCopyHandling {
        static let name = String(repeating: "0123456789abcdef", count: 2)
        static let bytes: [UInt8] = (0..<(10 * 1024 * 1024 + 17)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) }
        func copyChunk(_ name: String, offset: UInt64, credential: String) throws(SyncRefusal) -> [UInt8]? {
            guard credential == "mine" || credential == "theirs" else { throw .unknownDevice }
            guard credential == "mine", name == Self.name, offset <= UInt64(Self.bytes.count) else { return nil }
            let start = Int(offset)
            return Array(Self.bytes[start..<min(start + CopyFile.chunkBytes, Self.bytes.count)])
        }
    }

    static func fixture() throws -> HubFixture {
        let hub = TestHub(invited: [HubFixture.child])
        return try HubFixture(routes: SyncRoutes.make(handler: hub, copies: Copies()))
    }

    @Test func aFileArrivesWholeInPiecesFromAnyOffset() throws {
        let f = try Self.fixture()
        let client = f.client(credential: "mine")
        var got: [UInt8] = []
        var pieces = 0
        while got.count < Copies.bytes.count {
            let piece = try #require(try client.copyChunk(Copies.name, offset: UInt64(got.count)))
            #expect(!piece.isEmpty && piece.count <= CopyFile.chunkBytes)
            got += piece
            pieces += 1
        }
        #expect(got == Copies.bytes && pieces == 3)
        // From the middle, as a device killed part of the way goes on; at the end, nothing.
        #expect(try client.copyChunk(Copies.name, offset: 5_000_000).map { Array($0.prefix(64)) } == Array(Copies.bytes[5_000_000..<5_000_064]))
        #expect(try client.copyChunk(Copies.name, offset: UInt64(Copies.bytes.count)) == [])
    }

    @Test func whatMayNotHaveAFileIsRefused() throws {
        let f = try Self.fixture()
        #expect(try f.client(credential: "theirs").copyChunk(Copies.name, offset: 0) == nil)   // 404: not theirs
        #expect(try f.client(credential: "mine").copyChunk(String(repeating: "f", count: 32), offset: 0) == nil)
        do {
            _ = try f.client(credential: "stranger").copyChunk(Copies.name, offset: 0)
            Issue.record("a stranger was given a piece")
        } catch {
            #expect(error == .refused(.unknownDevice))
        }
        let transport = f.transport()
        for path in ["/sync/v1/copy/\(Copies.name)/-1", "/sync/v1/copy/\(Copies.name)/1e3", "/sync/v1/copy/ZZ/0",
                     "/sync/v1/copy/\(Copies.name.uppercased())/0", "/sync/v1/copy/\(Copies.name)/99999999999999999999"] {
            let response = try transport.send("GET", path, body: [], contentType: nil, credential: "mine")
            #expect(response.status == 409, "\(path)")
        }
        let anonymous = try transport.send("GET", "/sync/v1/copy/\(Copies.name)/0", body: [], contentType: nil, credential: nil)
        #expect(anonymous.status == 401)
    }
}
