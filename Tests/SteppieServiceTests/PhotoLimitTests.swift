import Foundation
import SteppieCore
import SteppieGuardianWeb
@testable import SteppieService
import SteppieTestSupport
import Testing

/// One limit for a photo wherever it goes (issue 24, class 10): what the guardian pages accept
/// the child's page is served, whole; and a photo is judged by its size in pixels too, so a
/// 30 000 × 30 000 PNG of a few bytes is refused with a message naming the limit.
@Suite struct PhotoLimitTests {
    /// A PNG signature and IHDR of `width` × `height` (CRC computed here), then `padding` zero bytes.
    static func png(width: UInt32, height: UInt32, padding: Int = 32) -> [UInt8] {
        TestImages.png(width: width, height: height, padding: padding)
    }

    /// SOI, a JFIF segment, a baseline frame header of `width` × `height`, a little payload, EOI.
    static func jpeg(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
         0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
         0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0x01, 0x02, 0x03, 0xFF, 0xD9]
    }

    /// Adds a routine with `bytes` as its photo from the routine form; the reply and the photo's name.
    static func add(_ f: GuardianWebFixture, _ bytes: [UInt8], name: String = "p.png") throws -> (WebResponse, String?) {
        let (cookie, csrf) = try f.signIn()
        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let title = "Photo \(UUID().uuidString.prefix(6))"
        let reply = f.post("/guardian/set/\(set.id.lowercased)/add", cookie: cookie,
                           form: ["titleEn": title, "colorToken": "color.card.mint", "csrf": csrf],
                           files: ["photo": UploadedFile(filename: name, contentType: "image/png", bytes: bytes)])
        let routine = try f.store.routines(setId: set.id).first { $0.title.value(for: "en") == title }
        guard case .photo(_, let asset)? = routine?.icon else { return (reply, nil) }
        return (reply, asset)
    }

    /// The body of `GET path` on a kiosk server in this process serving `photos` (bytes, not text).
    static func kioskGet(_ photos: URL, _ path: String) throws -> (status: Int, body: [UInt8]) {
        let board = StateBoard(clock: ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000)))
        let server = PageServer.kiosk(address: "127.0.0.1", port: 0, webDirectory: URL(fileURLWithPath: "/nonexistent"), photosDirectory: photos,
                                      board: board, press: { _, _, _ in (200, "{}") })
        try server.start()
        defer { server.stop() }
        let raw = try #require(KioskHTTPTests.raw(server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n", timeout: 10))
        let split = try #require(raw.indices.first { raw[$0...].starts(with: Array("\r\n\r\n".utf8)) })
        let status = Int(String(decoding: raw[..<split], as: UTF8.self).split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, Array(raw[(split + 4)...]))
    }

    @Test(arguments: [4 << 20 + 512 << 10, 5 << 20])
    func aPhotoThePagesAcceptIsServedWholeToTheKiosk(_ size: Int) throws {
        let f = try GuardianWebFixture()
        let bytes = Self.png(width: 640, height: 480, padding: size - 33)
        #expect(bytes.count == size)
        let (reply, asset) = try Self.add(f, bytes)
        #expect(reply.status == 303, "\(reply.text)")
        let name = try #require(asset)
        let kiosk = try Self.kioskGet(f.photos, "/photos/\(name)")
        #expect(kiosk.status == 200)
        #expect(kiosk.body.count == size, "the kiosk served \(kiosk.body.count) of \(size) bytes")
        // Compared first: a failed `==` on 5 MiB arrays would have the test library diff them for minutes.
        let same = kiosk.body == bytes
        #expect(same)
        let (cookie, _) = try f.signIn()
        let guardian = f.get("/guardian/photos/\(name)", cookie: cookie)
        #expect(guardian.status == 200 && guardian.body.count == size)
    }

    @Test func aPhotoOverTheLimitIsRefusedByThePages() throws {
        let f = try GuardianWebFixture()
        let (reply, asset) = try Self.add(f, Self.png(width: 640, height: 480, padding: 5 << 20))
        #expect(reply.status == 400 && reply.text.contains("data-error-field=\"photo\""))
        #expect(asset == nil && f.photoFiles().isEmpty)
    }

    @Test(arguments: [(30_000, 30_000), (8193, 16), (16, 8193), (8000, 8000), (65_535, 65_535)])
    func hugeDimensionsAreRefusedNamingTheLimit(_ size: (Int, Int)) throws {
        for (kind, bytes) in [("png", Self.png(width: UInt32(size.0), height: UInt32(size.1))), ("jpeg", Self.jpeg(width: size.0, height: size.1))] {
            let f = try GuardianWebFixture()
            let before = try f.dump()
            let (reply, asset) = try Self.add(f, bytes, name: "big.\(kind)")
            #expect(reply.status == 400, "\(kind) \(size) was accepted")
            #expect(reply.text.contains("data-error-field=\"photo\""))
            #expect(reply.text.contains("8192") && reply.text.contains("40"), "the limit is named: \(reply.text)")
            #expect(asset == nil && f.photoFiles().isEmpty)
            #expect(try f.dump() == before)
        }
    }

    @Test(arguments: [(2, 2), (4032, 3024), (8192, 4096), (6000, 6000)])
    func ordinaryDimensionsAreAccepted(_ size: (Int, Int)) throws {
        for (kind, bytes) in [("png", Self.png(width: UInt32(size.0), height: UInt32(size.1))), ("jpeg", Self.jpeg(width: size.0, height: size.1))] {
            let f = try GuardianWebFixture()
            let (reply, asset) = try Self.add(f, bytes, name: "ok.\(kind)")
            #expect(reply.status == 303, "\(kind) \(size): \(reply.text)")
            #expect(asset != nil)
        }
    }
}
