import Foundation
import SteppieTestSupport
import SteppieSync

/// A hub and its devices on a simulated clock: each device's physical clock is the hub's plus a
/// skew. Everything is a value, so a whole run is a function of its seed.
struct SyncWorld {
    var hub = HubFeed()
    var devices: [SyncDevice]
    var skews: [Int64]
    var online: [Bool]
    var now: Int64 = 1_772_400_000_000 // 2026-03-02 in milliseconds
    /// Every write and event ever made, to check the end state against.
    var writes: [FieldChange] = []
    var events: [CompletionEvent] = []
    var idCounter = 0
    var refusals: [SyncRefusal] = []
    /// Anything else that stopped a pull (a device refusing the hub's stamps): never expected.
    var failures: [String] = []

    init(deviceCount: Int) {
        devices = (0..<deviceCount).map { SyncDevice(id: DeviceID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", $0 + 1)) ?? UUID())) }
        skews = Array(repeating: 0, count: deviceCount)
        online = Array(repeating: true, count: deviceCount)
    }

    func physical(_ d: Int) -> Int64 { now + skews[d] }

    mutating func newId() -> String {
        idCounter += 1
        return String(format: "00000000-0000-4000-9000-%012d", idCounter)
    }

    mutating func write(_ d: Int, _ entity: SyncEntity, _ record: String, child: String, _ field: String, _ value: SyncValue) {
        let change = devices[d].write(entity, record, child: child, field: field, value: value, physical: physical(d))
        writes.append(change)
    }

    mutating func record(_ d: Int, child: String, routine: String, set: String, date: String, _ kind: CompletionEvent.Kind) {
        let event = devices[d].record(id: newId(), child: child, routine: routine, set: set, date: date, kind: kind,
                                      at: "2026-03-02T07:00:00.000+09:00", physical: physical(d),
                                      shownTitle: devices[d].replica.value(RecordKey(.routine, routine), "title"),
                                      shownIcon: devices[d].replica.value(RecordKey(.routine, routine), "icon"))
        events.append(event)
    }

    /// One push; `lost` makes the hub apply it but the reply never arrive (the hub killed after
    /// its commit, or the connection cut): the device must send it again.
    @discardableResult
    mutating func push(_ d: Int, lost: Bool = false, limit: Int = SyncProtocol.maxBatchEntries) -> Bool {
        guard online[d], let request = devices[d].pushRequest(physical: physical(d), limit: limit) else { return false }
        do {
            let reply = try hub.push(request, now: now)
            if !lost { devices[d].pushed(reply) }
            return true
        } catch {
            refusals.append(error)
            devices[d].refused(error)
            return false
        }
    }

    /// Pulls until the hub has nothing more for the device (or a refusal).
    mutating func pull(_ d: Int, limit: Int = SyncProtocol.maxBatchEntries) {
        guard online[d] else { return }
        for _ in 0..<10_000 {
            do {
                let reply = try hub.pull(devices[d].pullRequest(physical: physical(d)), now: now, limit: limit)
                try devices[d].pulled(reply, physical: physical(d))
                if !reply.more { return }
            } catch let refusal as SyncRefusal {
                refusals.append(refusal)
                devices[d].refused(refusal)
                return
            } catch {
                failures.append("\(error)")
                return
            }
        }
    }

    /// Every device online, pushing and pulling until nothing moves.
    mutating func settle() {
        for _ in 0..<4 {
            for d in devices.indices {
                while !devices[d].pending.isEmpty {
                    if !push(d) { break }
                }
            }
            for d in devices.indices { pull(d) }
        }
    }
}
