import Foundation
import SteppieChildMode
import SteppieCore
@testable import SteppieService
import Testing

/// The control socket's wire as types (issue 25): each request's bytes, a press reply's bytes,
/// and the tables of `docs/service.md` and `docs/child-mode.md` against the enums they document.
@Suite struct ServiceWireTests {
    static func encoded<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let requests: [(ServiceRequest, String)] = [
        (ServiceRequest(id: 1, .ping), #"{"id":1,"op":"ping"}"#),
        (ServiceRequest(.status), #"{"op":"status"}"#),
        (ServiceRequest(id: 2, .say(text: "Hello", rate: 0.8, volume: 0.5, locale: "en")),
         #"{"id":2,"locale":"en","op":"say","rate":0.8,"text":"Hello","volume":0.5}"#),
        (ServiceRequest(database: "/d/steppie.db", .preview(child: "Mina", event: "allDone", intensity: "quiet", locale: "ko")),
         #"{"child":"Mina","database":"/d/steppie.db","event":"allDone","intensity":"quiet","locale":"ko","op":"preview"}"#),
        (ServiceRequest(id: 3, .press(.done, child: nil)), #"{"id":3,"op":"done"}"#),
        (ServiceRequest(.press(.undo, child: "Mina", locale: "en")), #"{"child":"Mina","locale":"en","op":"undo"}"#),
        (ServiceRequest(.press(.next, child: "Jun")), #"{"child":"Jun","op":"next"}"#),
        (ServiceRequest(.press(.card(routineId: "cb77"), child: "Mina")), #"{"child":"Mina","op":"press","routineId":"cb77"}"#),
        (ServiceRequest(.state(child: "Mina")), #"{"child":"Mina","op":"state"}"#),
        (ServiceRequest(id: 4, .subscribe(child: nil)), #"{"id":4,"op":"subscribe"}"#),
    ]

    /// Every request encodes to the documented line and decodes back to itself.
    @Test func eachRequestHasItsLineAndReadsBack() throws {
        #expect(Set(Self.requests.map(\.0.command.operation)) == Set(ServiceOperation.allCases))
        for (request, line) in Self.requests {
            #expect(try Self.encoded(request) == line)
            #expect(try JSONDecoder().decode(ServiceRequest.self, from: Data(line.utf8)) == request, "\(line)")
        }
        // Keys another operation reads are ignored, as before: `text` on a press.
        let press = try JSONDecoder().decode(ServiceRequest.self, from: Data(#"{"op":"done","text":"x","child":"Mina"}"#.utf8))
        #expect(press == ServiceRequest(.press(.done, child: "Mina")))
        // An operation that is not ours is not a request.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ServiceRequest.self, from: Data(#"{"op":"fly"}"#.utf8)) }
        #expect(try JSONDecoder().decode(ServiceRequest.Envelope.self, from: Data(#"{"id":9,"op":"fly"}"#.utf8)).op == "fly")
    }

    /// A press reply's bytes (the `press` object of `docs/service.md`'s example).
    @Test func aPressReplyHasTheDocumentedBytes() throws {
        let reply = ServiceReply(id: 3, ok: true, press: PressResult(child: "3785", action: .done, saved: true, notice: nil, completed: 1,
                                                                      total: 6, focus: "cb77", focusTitle: "Wake up"))
        #expect(try Self.encoded(reply) == #"{"id":3,"ok":true,"press":{"action":"done","child":"3785","completed":1,"focus":"cb77","focusTitle":"Wake up","saved":true,"total":6}}"#)
        let refused = PressResult(child: "3785", action: .undo, saved: false, notice: .undoRefused, completed: 1, total: 6)
        #expect(try Self.encoded(refused) == #"{"action":"undo","child":"3785","completed":1,"notice":"undoRefused","saved":false,"total":6}"#)
    }

    /// The first column of the table that follows `heading` (a line starting with it) in `doc`.
    static func tableColumn(_ doc: String, after heading: String) throws -> [String] {
        let text = try String(contentsOf: CLIRepository.url("docs/" + doc), encoding: .utf8)
        // Tables inside a list item are indented.
        let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex { $0.hasPrefix(heading) }, "no table \(heading) in \(doc)")
        var cells: [String] = []
        for line in lines[(start + 2)...] {
            guard line.hasPrefix("|") else { break }
            let first = line.split(separator: "|", omittingEmptySubsequences: true).first.map(String.init) ?? ""
            // "`done`, `undo`, `next`" names three.
            for part in first.components(separatedBy: ",") {
                let name = part.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                if !name.isEmpty { cells.append(name) }
            }
        }
        return cells
    }

    @Test func docsServiceListsExactlyTheOperationsAndNotices() throws {
        let ops = try Self.tableColumn("service.md", after: "| `op` | fields | reply |")
        #expect(ops.sorted() == ServiceOperation.allCases.map(\.rawValue).sorted())
        #expect(ops.count == Set(ops).count, "an operation is listed twice: \(ops)")
        let notices = try Self.tableColumn("service.md", after: "| notice | when |")
        #expect(notices.sorted() == PressNotice.allCases.map(\.rawValue).sorted())
    }

    @Test func docsChildModeListsExactlyTheEventKinds() throws {
        let kinds = try Self.tableColumn("child-mode.md", after: "| `type` | written when |")
        #expect(kinds.sorted() == EventLogRecord.Kind.allCases.map(\.rawValue).sorted())
    }
}

extension CLIRepository {
    static func url(_ relative: String) -> URL { URL(fileURLWithPath: root).appendingPathComponent(relative) }
}
