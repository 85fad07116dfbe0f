import Foundation
import SteppieCore
import SteppieService
import SteppieStore
import SteppieTestSupport
import Testing

/// Reminders spoken by the service with no screen open, on the scripted clock (`STEPPIE_NOW`
/// runs on at real speed from its start), heard in the WAV output and seen by a subscriber.
@Suite(.serialized) struct ServiceReminderTests {
    /// (zone, scripted start two seconds before the reminder, routine time, lead minutes)
    static let cases: [(String, String, String, Int)] = [
        ("Asia/Seoul", "2026-03-02T07:24:58+09:00", "07:30", 5),
        // The New York spring-forward night: 02:00 does not exist; 03:05 EDT is 5 min before 03:10.
        ("America/New_York", "2026-03-08T03:04:58-04:00", "03:10", 5),
        // Midnight in Seoul: the reminder belongs to the new day's plan.
        ("Asia/Seoul", "2026-03-02T23:59:58+09:00", "00:05", 5),
    ]

    @Test(arguments: cases.map(\.1))
    func aReminderIsSpokenWithNoScreenOpen(start: String) throws {
        let (zone, _, time, lead) = try #require(Self.cases.first { $0.1 == start })
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"], extra: ["TZ": zone]).status == 0)
        let store = try Store(path: f.db, timeZone: try #require(TimeZone(identifier: zone)))
        let child = try store.resolveChild("Mina")
        let setId = try #require(try store.activeSet(childId: child.id)).id
        var routine = try #require(try store.routines(setId: setId).last)
        routine.scheduledTime = LocalTime(time)
        try store.updateRoutine(routine, at: Date())
        var profile = child.profile
        profile.notificationLeadTimes = [lead]
        profile.quietHoursStart = nil
        profile.quietHoursEnd = nil
        try store.updateProfile(childId: child.id, profile, at: Date())

        let wav = f.directory + "/reminder.wav"
        try f.start(["--output", "wav", "--wav", wav], extra: ["TZ": zone, "STEPPIE_NOW": start])
        let screen = try f.client()
        #expect(try screen.request(ServiceRequest(.subscribe(child: nil))).ok)
        var reminder: [String: Any]?
        let deadline = Date().addingTimeInterval(8)
        while reminder == nil, let line = try screen.readLine(until: deadline) {
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let event = obj?["event"] as? [String: Any], event["cue"] as? String == "reminder" { reminder = event }
        }
        let event = try #require(reminder, "no reminder: \(f.logText)")
        #expect(event["activityId"] as? String == routine.id.lowercased)
        #expect(event["minutes"] as? Int == lead)
        // The spoken reminder is in the output: stop the service (the WAV is written on close).
        f.process?.stop(SIGTERM)
        #expect(f.process?.exitStatus == 0, "\(f.logText)")
        let samples = try WAVReader.samples(wav)
        #expect(samples.count > 22050 / 2, "only \(samples.count) samples")
        let rms = (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
        #expect(rms > 0.01, "RMS \(rms)")
    }
}

/// Reads a 16-bit mono WAV written by the engine (RIFF header, then `data`).
enum WAVReader {
    static func samples(_ path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = [UInt8](data)
        var i = 12
        while i + 8 <= bytes.count {
            let id = String(decoding: bytes[i..<i + 4], as: UTF8.self)
            let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            if id == "data" {
                let body = bytes[(i + 8)..<min(bytes.count, i + 8 + size)]
                return stride(from: body.startIndex, to: body.endIndex - 1, by: 2).map {
                    Float(Int16(bitPattern: UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8)) / 32768
                }
            }
            i += 8 + size + (size & 1)
        }
        return []
    }
}
