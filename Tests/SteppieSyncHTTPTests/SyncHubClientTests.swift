import Foundation
import SteppieHTTP
import SteppieSync
import SteppieSyncHTTP
import Synchronization
import Testing

/// The device's client against a real HTTPS hub on loopback (libmicrohttpd + GnuTLS, the
/// service's own TLS identity): the protocol's messages round-trip, every refusal arrives typed,
/// and what must be refused never reaches the hub.
@Suite struct SyncHubClientTests {
    typealias F = HubFixture

    /// What a failing call threw (nil when it did not throw).
    static func failure<T>(_ body: () throws -> T) -> SyncTransportError? {
        do { _ = try body() } catch let error as SyncTransportError { return error } catch { Issue.record("\(error)") }
        return nil
    }

    @Test func aPushAndAPullRoundTripThroughTheHub() throws {
        let f = try F()
        let a = try f.joined(F.deviceA), b = try f.joined(F.deviceB)
        let routine = "6b1f4e2a-0c3d-4a5b-8c7d-9e0f1a2b3c4d"
        let first = F.title(routine, "Brush teeth", by: F.deviceA)
        #expect(try a.push(F.push(F.deviceA, [first])) == PushReply(acknowledged: 1, hubTime: TestHub.now))

        // B's first pull is a copy of its child; then the feed from that copy's cursor.
        let copy = try b.pull(PullRequest(device: F.deviceB, sentAt: TestHub.now, cursor: 0))
        #expect(copy.freshCopy && copy.entries == [first] && copy.children == [F.child])
        // The copy's closing mark sent back: the copy is taken (an empty last page).
        #expect(copy.more && copy.copyAfter?.hasSuffix("$") == true)
        let taken = try b.pull(PullRequest(device: F.deviceB, sentAt: TestHub.now, cursor: copy.cursor, copyAfter: copy.copyAfter))
        #expect(taken.freshCopy && taken.entries.isEmpty && !taken.more && taken.cursor == copy.cursor)
        let second = F.title(routine, "Brush teeth well", by: F.deviceA, counter: 1)
        #expect(try a.push(F.push(F.deviceA, [second], from: 2)).acknowledged == 2)
        let next = try b.pull(PullRequest(device: F.deviceB, sentAt: TestHub.now, cursor: copy.cursor))
        #expect(!next.freshCopy && next.entries == [second] && next.cursor == 2 && !next.more)
        #expect(f.hub.calls == ["join", "join", "push", "pull", "pull", "push", "pull"])
    }

    /// An IPv6 literal, and a name (`localhost`: its addresses are tried in turn).
    @Test func aHubIsReachedByAnIPv6LiteralOrAName() throws {
        let v6 = try F(address: "::1")
        let joined = try v6.client(credential: nil).join(JoinRequest(code: TestHub.code, deviceName: "x", device: F.deviceA))
        #expect(joined.children == [F.child] && v6.address.authority == "[::1]:\(v6.server.port)")
        let v4 = try F()
        let named = SyncHTTPSClient(hub: try #require(HubAddress("https://localhost:\(v4.server.port)")), fingerprint: v4.identity.fingerprint)
        _ = try SyncHubClient(transport: named, credential: nil).join(JoinRequest(code: TestHub.code, deviceName: "x", device: F.deviceA))
        #expect(v4.hub.calls == ["join"] && v6.hub.calls == ["join"])
    }

    @Test func aReplayedPushIsAcknowledgedAgainWithNothingAppliedTwice() throws {
        let f = try F()
        let a = try f.joined(F.deviceA)
        let request = F.push(F.deviceA, [F.title("r1", "One", by: F.deviceA), F.title("r2", "Two", by: F.deviceA)])
        let first = try a.push(request)
        let feed = f.hub.feed
        let again = try a.push(request)
        #expect(first == again && again.acknowledged == 2)
        #expect(f.hub.feed.feed == feed.feed && f.hub.feed.store == feed.store && f.hub.feed.position == 2)
    }

    @Test func aWrongFingerprintIsRefusedBeforeTheRequestIsSent() throws {
        let f = try F()
        let real = f.identity.fingerprint
        // The real one with its last digit changed.
        let wrong = String(real.dropLast()) + (real.hasSuffix("0") ? "1" : "0")
        let client = f.client(credential: "cred-\(F.deviceA.text)", fingerprint: wrong)
        let error = Self.failure { try client.push(F.push(F.deviceA, [F.title("r1", "One", by: F.deviceA)])) }
        #expect(error == .fingerprintMismatch(expected: wrong, got: real))
        let joining = Self.failure { try f.client(credential: nil, fingerprint: wrong).join(JoinRequest(code: TestHub.code, deviceName: "x", device: F.deviceA)) }
        #expect(joining == .fingerprintMismatch(expected: wrong, got: real))
        #expect(f.hub.calls.isEmpty)
        // The same fingerprint written in lowercase, without colons, is the same certificate.
        let relaxed = real.lowercased().replacingOccurrences(of: ":", with: "")
        _ = try f.client(credential: nil, fingerprint: relaxed).join(JoinRequest(code: TestHub.code, deviceName: "x", device: F.deviceA))
        #expect(f.hub.calls == ["join"])
    }

    @Test func everyRefusalArrivesTyped() throws {
        let f = try F()
        let a = try f.joined(F.deviceA)
        let entry = F.title("r1", "One", by: F.deviceA)
        let stranger = "0f0e0d0c-0b0a-4908-8706-050403020100"
        let strangers = SyncEntry.change(FieldChange(entity: .routine, record: "r9", child: stranger, field: "title",
                                                     value: .string("x"), stamp: HybridTimestamp(wall: TestHub.now, counter: 0, device: F.deviceA)))
        let unknownField = SyncEntry.change(FieldChange(entity: .routine, record: "r1", child: F.child, field: "colour",
                                                        value: .string("x"), stamp: HybridTimestamp(wall: TestHub.now, counter: 0, device: F.deviceA)))
        let tooMany = (0...SyncProtocol.maxBatchEntries).map { F.title("r\($0)", "T", by: F.deviceA, counter: UInt32($0)) }
        let cases: [(String, () throws -> Void, SyncRefusal)] = [
            ("version", { _ = try a.push(F.push(F.deviceA, [entry], protocolVersion: 2)) }, .protocolVersion(hub: 1, device: 2)),
            ("clock", { _ = try a.push(F.push(F.deviceA, [entry], sentAt: TestHub.now + 360_000)) }, .clockSkew(offsetMilliseconds: 360_000)),
            ("credential", { _ = try f.client(credential: "cred-nobody").push(F.push(F.deviceA, [entry])) }, .unknownDevice),
            ("no credential", { _ = try f.client(credential: nil).push(F.push(F.deviceA, [entry])) }, .unknownDevice),
            ("pull credential", { _ = try f.client(credential: "cred-nobody").pull(PullRequest(device: F.deviceA, sentAt: TestHub.now, cursor: 0)) }, .unknownDevice),
            ("child", { _ = try a.push(F.push(F.deviceA, [strangers])) }, .childNotGiven(child: stranger)),
            ("field", { _ = try a.push(F.push(F.deviceA, [unknownField])) }, .malformed(reason: "unknown field")),
            ("gap", { _ = try a.push(F.push(F.deviceA, [entry], from: 5)) }, .gap(expected: 1)),
            ("too many", { _ = try a.push(F.push(F.deviceA, tooMany)) }, .tooLarge),
            ("join code", { _ = try f.client(credential: nil).join(JoinRequest(code: "000000", deviceName: "x", device: F.deviceB)) }, .unknownDevice),
        ]
        for (label, call, refusal) in cases {
            #expect(Self.failure(call) == .refused(refusal), "\(label)")
        }
        // Nothing refused changed the hub.
        #expect(f.hub.feed.position == 0 && f.hub.feed.acknowledged[F.deviceA] == 0)
        // The version is read before anything else, and a request without a credential is not handed on.
        #expect(f.hub.calls.filter { $0 == "push" }.count == 6)
    }

    @Test func garbageIsMalformedAndNeverReachesTheHub() throws {
        let f = try F()
        _ = try f.joined(F.deviceA)
        let transport = f.transport()
        for body in ["{not json", "[]", #"{"protocolVersion":1,"device":"not a device","sentAt":0,"entries":[]}"#, ""] {
            let response = try transport.post(SyncHTTPMapping.pushPath, json: Array(body.utf8), credential: "cred-\(F.deviceA.text)")
            #expect(response.status == 409, "\(body)")
            let refusal = try JSONDecoder().decode(SyncHTTPMapping.RefusalBody.self, from: Data(response.body)).refusal
            guard case .malformed = refusal else {
                Issue.record("\(body): \(refusal)")
                continue
            }
        }
        #expect(f.hub.calls == ["join"])
    }

    @Test func aBodyOverThePushLimitIs413AndNeverReachesTheHub() throws {
        let f = try F()
        let a = try f.joined(F.deviceA)
        // 2,000 entries (the most a batch has) whose titles are far longer than any real one.
        let long = String(repeating: "가", count: 400)
        let request = F.push(F.deviceA, (0..<SyncProtocol.maxBatchEntries).map { F.title("r\($0)", long, by: F.deviceA, counter: UInt32($0)) })
        let size = try JSONEncoder().encode(request).count
        #expect(size > SyncRoutes.pushBodyLimit)
        let error = Self.failure { try a.push(request) }
        #expect(error == .refused(.tooLarge))
        #expect(f.hub.calls == ["join"])
        // The connection the hub closed early does not spoil the next request.
        #expect(try a.push(F.push(F.deviceA, [F.title("r1", "One", by: F.deviceA)])).acknowledged == 1)
        #expect(f.hub.calls == ["join", "push"])
    }

    @Test func aHeldPullDoesNotHoldUpAnotherDevicesPush() throws {
        let f = try F()
        let a = try f.joined(F.deviceA), b = try f.joined(F.deviceB)
        let copy = try b.pull(PullRequest(device: F.deviceB, sentAt: TestHub.now, cursor: 0))
        final class Outcome: Sendable { let value = Mutex<Result<PullReply, SyncTransportError>?>(nil) }
        let result = Outcome()
        let done = DispatchSemaphore(value: 0)
        let held = PullRequest(device: F.deviceB, sentAt: TestHub.now, cursor: copy.cursor, waitMilliseconds: 20_000)
        Thread.detachNewThread {
            let reply: Result<PullReply, SyncTransportError>
            do throws(SyncTransportError) { reply = .success(try b.pull(held)) } catch { reply = .failure(error) }
            result.value.withLock { $0 = reply }
            done.signal()
        }
        // Once the pull is held by the hub, A pushes: it is answered while B's pull waits.
        #expect(f.hub.holding.wait(timeout: .now() + 10) == .success)
        let started = ContinuousClock.now
        let entry = F.title("r1", "One", by: F.deviceA)
        #expect(try a.push(F.push(F.deviceA, [entry])).acknowledged == 1)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(result.value.withLock { $0 } == nil)
        f.hub.wake.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try result.value.withLock { $0 }?.get().entries == [entry])
    }
}
