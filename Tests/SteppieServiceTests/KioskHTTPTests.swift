import Foundation
import SteppieCore
import SteppieService
import SteppieStore
import SteppieTestSupport
import Testing

/// The kiosk pages' HTTP server of a real `steppie serve`, spoken to with raw HTTP/1.1 so every
/// header is the test's choice: only the child's three actions, only from the page's own origin,
/// only under its own host name.
@Suite(.serialized) struct KioskHTTPTests {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// One request on a fresh connection (`Connection: close`), read to the end or `timeout`.
    static func request(_ port: UInt16, _ text: String, timeout: Double = 5) -> Response? {
        raw(port, text, timeout: timeout).flatMap(parse)
    }

    /// A TCP connection to 127.0.0.1:`port` whose reads give up after `timeout` seconds; nil when
    /// it cannot be made. The caller closes it.
    static func connectLoopback(_ port: UInt16, timeout: Int = 5) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard ok == 0 else { close(fd); return nil }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// The bytes a server sends back for `text` (nil when the connection cannot be made).
    static func raw(_ port: UInt16, _ text: String, timeout: Double = 5) -> [UInt8]? {
        guard let fd = connectLoopback(port, timeout: Int(timeout)) else { return nil }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var data = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buf[0..<n]
        }
        return data
    }

    /// An HTTP/1.1 response's status, headers (names lowercased) and body.
    static func parse(_ data: [UInt8]) -> Response? {
        let raw = String(decoding: data, as: UTF8.self)
        guard let split = raw.range(of: "\r\n\r\n") else { return nil }
        let head = raw[..<split.lowerBound].split(separator: "\r\n")
        guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Response(status: status, headers: headers, body: String(raw[split.upperBound...]))
    }

    static func get(_ port: UInt16, _ path: String, host: String? = nil) -> Response? {
        request(port, "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n\r\n")
    }

    static func post(_ port: UInt16, _ path: String, body: String = "{}", origin: String? = nil, type: String = "application/json",
                     timeout: Double = 5) -> Response? {
        var text = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n"
        if let origin { text += "Origin: \(origin)\r\n" }
        return request(port, text + "\r\n" + body, timeout: timeout)
    }

    /// A service with its pages on a free loopback port; the port and the child's id from its log.
    static func serve(_ f: ServiceFixture) throws -> (port: UInt16, child: String) {
        try f.start(["--output", "null", "--http", "127.0.0.1:0"])
        _ = waitUntil(timeout: 5) { f.logText.contains("/child/") }
        let line = try #require(f.logText.split(separator: "\n").first { $0.contains("/child/") })
        let url = String(line[line.range(of: "http://")!.lowerBound...])
        let port = try #require(UInt16(url.split(separator: ":")[2].split(separator: "/")[0]))
        return (port, String(url.split(separator: "/").last ?? ""))
    }

    @Test func thePageItsStateAndATapThatIsSaved() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let (port, child) = try Self.serve(f)
        let root = try #require(Self.get(port, "/"))
        #expect(root.status == 302 && root.headers["location"] == "/child/\(child)")
        let state = try #require(Self.get(port, "/api/child/\(child)/state"))
        #expect(state.status == 200)
        #expect(state.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(state.body.utf8)) as? [String: Any])
        #expect(json["screen"] as? String == "current")
        let version = try #require(json["version"] as? Int)
        // A tap from the page's own origin is saved.
        let tap = try #require(Self.post(port, "/api/child/\(child)/done", body: "{\"version\":\(version)}", origin: "http://127.0.0.1:\(port)"))
        #expect(tap.status == 200, "\(tap.body)")
        #expect(tap.body.contains("\"screen\":\"undo\""))
        let store = try f.store()
        let mina = try store.resolveChild("Mina")
        #expect(try store.today(childId: mina.id, day: LocalDay(Date(), in: store.timeZone)).completedCount == 1)
        // A tap made on the screen before that one is refused with the screen now, not applied.
        let stale = try #require(Self.post(port, "/api/child/\(child)/next", body: "{\"version\":\(version)}", origin: "http://127.0.0.1:\(port)"))
        #expect(stale.status == 409 && stale.body.contains("\"screen\":\"undo\""))
    }

    @Test func aRoutinePhotoIsShownFromTheDataFolderAndNothingElseIs() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let store = try f.store()
        let mina = try store.resolveChild("Mina")
        let set = try #require(try store.activeSet(childId: mina.id))
        var first = try #require(try store.routines(setId: set.id).first)
        let photoName = "routine-photo-\(first.id.lowercased).png"
        first.icon = .photo(localAssetId: UUID().uuidString, backupAssetName: photoName)
        try store.updateRoutine(first, at: Date())
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 32)
        try FileManager.default.createDirectory(atPath: f.directory + "/assets", withIntermediateDirectories: true)
        try Data(png).write(to: URL(fileURLWithPath: f.directory + "/assets/" + photoName))
        let (port, child) = try Self.serve(f)
        let state = try #require(Self.get(port, "/api/child/\(child)/state"))
        #expect(state.body.contains("\"url\":\"/photos/\(photoName)\""), "\(state.body.prefix(400))")
        let photo = try #require(Self.get(port, "/photos/" + photoName))
        #expect(photo.status == 200 && photo.headers["content-type"] == "image/png")
        #expect(photo.body.utf8.count == png.count || photo.body.unicodeScalars.count > 0)
        for path in ["/photos/steppie.db", "/photos/..%2Fsteppie.db", "/photos/.hidden.png", "/photos/missing.png"] {
            #expect(Self.get(port, path)?.status == 404, "\(path)")
        }
    }

    @Test func theEventStreamFollowsPressesFromAnyFrontEnd() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let (port, child) = try Self.serve(f)
        // Open the stream and read it on a thread while a `complete` comes through the socket.
        let received = Mutex2()
        let thread = Thread {
            let r = Self.request(port, "GET /api/child/\(child)/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", timeout: 3)
            received.set(r?.body ?? "")
        }
        thread.start()
        usleep(300_000)
        let started = Date()
        #expect(f.run(["complete"]).status == 0)
        #expect(waitUntil(timeout: 6) { received.value != nil })
        let body = received.value ?? ""
        let events = body.components(separatedBy: "event: state").count - 1
        #expect(events >= 2, "events: \(body.prefix(300))")
        #expect(body.contains("\"screen\":\"undo\""))
        #expect(Date().timeIntervalSince(started) < 6)
    }

    @Test func nothingButTheChildsActionsFromThePagesOwnOrigin() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let (port, child) = try Self.serve(f)
        let store = try f.store()
        let before = try store.dump()
        // DNS rebinding: another host name is refused.
        #expect(Self.get(port, "/api/children", host: "evil.example:\(port)")?.status == 421)
        #expect(Self.get(port, "/api/child/\(child)/state", host: "steppie.local")?.status == 421)
        // A POST from another origin, without an origin, or not JSON, is refused.
        #expect(Self.post(port, "/api/child/\(child)/done", origin: "http://evil.example")?.status == 403)
        #expect(Self.post(port, "/api/child/\(child)/done", origin: nil)?.status == 403)
        #expect(Self.post(port, "/api/child/\(child)/done", origin: "http://127.0.0.1:\(port)", type: "text/plain")?.status == 415)
        // A body over 1 KiB is refused.
        let big = String(repeating: " ", count: 4096)
        #expect(Self.post(port, "/api/child/\(child)/done", body: "{\"version\":1}" + big, origin: "http://127.0.0.1:\(port)")?.status == 413)
        // Guardian functions and files outside Web/ are not there.
        for path in ["/api/guardian", "/api/child/\(child)/profile", "/static/../../steppie.db", "/static/%2e%2e%2fsteppie.db",
                     "/icons/../kiosk.css", "/icons/not-an-icon.svg", "/api/child/\(child)/backup"] {
            let r = Self.get(port, path)
            #expect(r?.status == 404, "\(path): \(String(describing: r?.status))")
        }
        // The guardian pages are behind the PIN; with none set they say so and do nothing else.
        #expect(Self.get(port, "/guardian/")?.status == 403)
        #expect(Self.get(port, "/guardian/child/\(child)/feedback")?.status == 403)
        #expect(Self.request(port, "DELETE /api/child/\(child)/done HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")?.status == 405)
        #expect(try store.dump() == before)
        // The pages are loopback only.
        let wide = f.run(["serve", "--output", "null", "--http", "0.0.0.0:8470"], extra: ["STEPPIE_SOCKET": f.directory + "/x.sock"])
        #expect(wide.status == 64, "\(wide.err)")
    }
}

/// A value set once by another thread.
final class Mutex2: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    func set(_ v: String) { lock.withLock { stored = v } }
    var value: String? { lock.withLock { stored } }
}
