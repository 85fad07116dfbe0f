import Foundation
import SteppieCore
import SteppieService
import SteppieStore
import SteppieTestSupport
import Testing

/// A day at the device, compressed: thousands of presses on the control socket and taps from the
/// kiosk page's HTTP API for three children, event streams (socket and Server-Sent Events) opened
/// and dropped, spoken lines, with real sound through PulseAudio. After a warm-up of the same mix
/// the service must hold steady: its memory grows by no more than a small budget, no file
/// descriptor or thread is left behind, and every completion it confirmed is in the database.
/// Runs with the stress suites (`scripts/test.sh`); `STEPPIE_SOAK_ROUNDS` sets the measured rounds.
@Suite(.serialized) struct ServiceSoakTests {
    /// What `/proc` says of a process.
    struct Usage: CustomStringConvertible {
        /// Resident memory in all, its anonymous part (heap, stacks: what a leak grows) and its
        /// file-backed part (code and data of the binary and libraries, paged in as paths run).
        var rssKiB: Int, anonKiB: Int, fileKiB: Int, fds: Int, threads: Int
        var description: String {
            String(format: "RSS %.1f MiB (anonymous %.1f, files %.1f), %d descriptors, %d threads",
                   Double(rssKiB) / 1024, Double(anonKiB) / 1024, Double(fileKiB) / 1024, fds, threads)
        }

        init?(pid: pid_t) {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
            func field(_ key: String) -> Int? {
                guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return nil }
                return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
            }
            guard let rss = field("VmRSS"), let anon = field("RssAnon"), let file = field("RssFile"), let threads = field("Threads"),
                  let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count else { return nil }
            rssKiB = rss; anonKiB = anon; fileKiB = file; self.fds = fds; self.threads = threads
        }
    }

    /// Opens `/api/child/<id>/events`, reads until the first `state` event, and drops the connection.
    static func firstEvent(_ port: UInt16, child: String) -> Bool {
        guard let fd = KioskHTTPTests.connectLoopback(port) else { return false }
        defer { close(fd) }
        let text = Array("GET /api/child/\(child)/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        _ = text.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var seen = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 8192)
        while seen.count < 1 << 20 {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return false }
            seen += buf[0..<n]
            if String(decoding: seen, as: UTF8.self).contains("event: state\ndata: {") { return true }
        }
        return false
    }

    @Test func aDayOfPressesLeavesTheServiceAsItWas() throws {
        let f = ServiceFixture()
        for name in ["Mina", "Joon", "Ari"] { #expect(f.run(["init", "--child", name]).status == 0) }
        try f.start(["--output", "pulse", "--http", "127.0.0.1:0"])
        _ = waitUntil(timeout: 5) { f.logText.contains("/child/") }
        let line = try #require(f.logText.split(separator: "\n").first { $0.contains("/child/") })
        let url = String(line[line.range(of: "http://")!.lowerBound...])
        let port = try #require(UInt16(url.split(separator: ":")[2].split(separator: "/")[0]))
        let pid = try #require(f.process?.pid)
        let children = try f.store().children().map { ($0.displayName, $0.id.lowercased) }
        #expect(children.count == 3)
        let client = try f.client()
        var confirmed = 0

        /// One round: for each child a socket done and undo, a tap on the page and its undo, every
        /// few rounds a state read, a socket subscription and an event stream dropped, a spoken line.
        func round(_ n: Int) throws {
            for (name, id) in children {
                for op in [PressAction.done, .undo] {
                    let reply = try client.request(ServiceRequest(.press(op, child: name)))
                    #expect(reply.ok, "\(op) \(name): \(String(describing: reply.error))")
                }
                // The page's own rule: a tap carries the version of the screen it was made on; a
                // screen that changed since (the socket's undo may not be published yet) answers
                // 409 with the screen now, and the page taps again on that.
                var screen = try #require(KioskHTTPTests.get(port, "/api/child/\(id)/state")).body
                var tapped = false
                for _ in 0..<3 where !tapped {
                    let object = try JSONSerialization.jsonObject(with: Data(screen.utf8)) as? [String: Any]
                    let version = try #require(object?["version"] as? Int)
                    let tap = try #require(KioskHTTPTests.post(port, "/api/child/\(id)/done", body: "{\"version\":\(version)}",
                                                               origin: "http://127.0.0.1:\(port)"))
                    #expect(tap.status == 200 || tap.status == 409, "tap \(name): \(tap.status) \(tap.body)")
                    tapped = tap.status == 200
                    screen = tap.body
                }
                #expect(tapped, "tap \(name) was refused three times")
                #expect(try client.request(ServiceRequest(.press(.undo, child: name))).ok)
            }
            if n % 5 == 0 {
                let watcher = try f.client()
                #expect(try watcher.request(ServiceRequest(.subscribe(child: children[n % 3].0))).ok)
                #expect(Self.firstEvent(port, child: children[n % 3].1))
                // Both dropped here: the watcher when it goes out of scope, the stream above.
            }
            if n % 10 == 0 {
                // Two lines in turn: the synthesizer keeps the last 24 sentences (SpeechCache), so
                // new text every time would fill that cache, not show a leak.
                let line = n % 20 == 0 ? "Time to brush your teeth." : "Shoes on, we are going out."
                #expect(try client.request(ServiceRequest(.say(text: line, locale: "en"))).ok)
            }
        }

        let warmUp = 60
        let rounds = Int(ProcessInfo.processInfo.environment["STEPPIE_SOAK_ROUNDS"] ?? "") ?? 200
        /// A dropped event stream is noticed when the next event goes out: one press and its undo
        /// for each child wakes every stream; then no connection to the pages' port may be open or
        /// half-closed on the service's side (`/proc/net/tcp`: ESTABLISHED or CLOSE_WAIT).
        func settle() throws {
            for (name, _) in children {
                #expect(try client.request(ServiceRequest(.press(.done, child: name))).ok)
                #expect(try client.request(ServiceRequest(.press(.undo, child: name))).ok)
            }
            let local = String(format: ":%04X", port)
            let closed = waitUntil(timeout: 20) {
                let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
                return !table.split(separator: "\n").dropFirst().contains { line in
                    let fields = line.split(separator: " ")
                    return fields.count > 3 && fields[1].hasSuffix(local) && (fields[3] == "01" || fields[3] == "08")
                }
            }
            #expect(closed, "connections to the pages stayed open")
        }
        for n in 0..<warmUp { try round(n) }
        try settle()
        let start = try #require(Usage(pid: pid))
        var trace: [Int] = []   // anonymous RSS in KiB every 50 rounds, for the log
        for n in warmUp..<(warmUp + rounds) {
            try round(n)
            if (n - warmUp) % 50 == 49 { trace.append(Usage(pid: pid)?.anonKiB ?? 0) }
        }
        try settle()
        // A connection's thread ends just after its socket is closed.
        _ = waitUntil(timeout: 5) { Usage(pid: pid).map { $0.threads <= start.threads && $0.fds <= start.fds } ?? false }
        let end = try #require(Usage(pid: pid))

        // Every child ends on two completions today (done, next, done), confirmed by the service
        // and in the file.
        for (name, _) in children {
            for op in [PressAction.done, .next, .done] { #expect(try client.request(ServiceRequest(.press(op, child: name))).ok) }
            confirmed += 2
        }
        let store = try f.store()
        let today = LocalDay(Date(), in: TimeZone(identifier: "Asia/Seoul") ?? .current)
        var saved = 0
        for child in try store.children() {
            saved += try store.dayEntries(childId: child.id, day: today, reference: today).filter { $0.state == .completed }.count
        }
        #expect(saved == confirmed)
        #expect(try store.integrityProblems().isEmpty)

        let presses = rounds * children.count * 4
        let grownKiB = end.anonKiB - start.anonKiB
        print("soak: \(rounds) rounds, \(presses) presses and taps after a \(warmUp)-round warm-up; before: \(start); after: \(end); "
              + String(format: "%.1f KiB per 1,000 presses", Double(grownKiB) * 1000 / Double(presses))
              + "; anonymous RSS every 50 rounds (KiB): \(trace.map(String.init).joined(separator: " "))")
        #expect(end.fds == start.fds, "descriptors \(start.fds) -> \(end.fds)")
        #expect(end.threads == start.threads, "threads \(start.threads) -> \(end.threads)")
        // Heap and stacks only: code pages come in as paths first run. Measured here (debug build):
        // the heap settles in two steps of 0.7 and 0.25 MiB within the first 450 rounds, then stays
        // flat to the KiB for 650 rounds (13,200 presses). A leak of 1 KiB a press would be 2.3 MiB
        // over the default 200 rounds.
        #expect(grownKiB < 2048, "the service's heap grew by \(grownKiB) KiB over \(presses) presses: \(trace)")
    }
}
