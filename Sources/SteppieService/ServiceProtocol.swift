import Foundation
import SteppieCore

/// The control socket's operations (docs/service.md, "Requests"; `ServiceWireTests` checks that
/// the table there lists exactly these).
public enum ServiceOperation: String, Codable, CaseIterable, Sendable {
    case ping, status, say, preview, done, undo, next, press, state, subscribe
}

/// A press on a child's routine: one of the three buttons, or a card of today's plan.
public enum PressAction: Equatable, Sendable {
    case done, undo, next
    /// `press` with `routineId` (checked by the service: a UUID of today's plan).
    case card(routineId: String?)

    public var operation: ServiceOperation {
        switch self {
        case .done: .done
        case .undo: .undo
        case .next: .next
        case .card: .press
        }
    }
}

/// One request on the control socket: one JSON object per line, `{"op": …, …}`; `id` is echoed
/// in the reply. What each operation reads is its case of `Command`; other keys are ignored.
/// `child` (a name or an id) selects the child; without it, the only child. `database`, when
/// given, must be the service's own database (else `otherDatabase`), so a command aimed at
/// another file never reaches this service.
public struct ServiceRequest: Codable, Equatable, Sendable {
    public enum Command: Equatable, Sendable {
        case ping
        case status
        /// Text (1–4000 bytes), rate 0.5–1.5, volume 0–1, spoken on the open stream.
        case say(text: String?, rate: Double? = nil, volume: Double? = nil, locale: String? = nil)
        /// One feedback event (default `completed`) at an intensity (default: the child's).
        case preview(child: String?, event: String? = nil, intensity: String? = nil, locale: String? = nil)
        /// `locale`: the language of the titles in the reply.
        case press(PressAction, child: String?, locale: String? = nil)
        /// Everything a screen draws.
        case state(child: String?)
        /// The child's status, then its event lines.
        case subscribe(child: String?)

        public var operation: ServiceOperation {
            switch self {
            case .ping: .ping
            case .status: .status
            case .say: .say
            case .preview: .preview
            case .press(let action, _, _): action.operation
            case .state: .state
            case .subscribe: .subscribe
            }
        }
    }

    public var id: Int?
    public var database: String?
    public var command: Command

    public init(id: Int? = nil, database: String? = nil, _ command: Command) {
        self.id = id
        self.database = database
        self.command = command
    }

    /// The first two keys alone: a line whose `op` is none of ours is told `unknownOperation`,
    /// not `badRequest`.
    public struct Envelope: Decodable, Sendable {
        public var id: Int?
        public var op: String
    }

    private enum Keys: String, CodingKey {
        case id, op, database, child, routineId, text, rate, volume, locale, event, intensity
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = try c.decodeIfPresent(Int.self, forKey: .id)
        database = try c.decodeIfPresent(String.self, forKey: .database)
        let child = try c.decodeIfPresent(String.self, forKey: .child)
        let locale = try c.decodeIfPresent(String.self, forKey: .locale)
        switch try c.decode(ServiceOperation.self, forKey: .op) {
        case .ping: command = .ping
        case .status: command = .status
        case .say:
            command = .say(text: try c.decodeIfPresent(String.self, forKey: .text), rate: try c.decodeIfPresent(Double.self, forKey: .rate),
                           volume: try c.decodeIfPresent(Double.self, forKey: .volume), locale: locale)
        case .preview:
            command = .preview(child: child, event: try c.decodeIfPresent(String.self, forKey: .event),
                               intensity: try c.decodeIfPresent(String.self, forKey: .intensity), locale: locale)
        case .done: command = .press(.done, child: child, locale: locale)
        case .undo: command = .press(.undo, child: child, locale: locale)
        case .next: command = .press(.next, child: child, locale: locale)
        case .press: command = .press(.card(routineId: try c.decodeIfPresent(String.self, forKey: .routineId)), child: child, locale: locale)
        case .state: command = .state(child: child)
        case .subscribe: command = .subscribe(child: child)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encode(command.operation, forKey: .op)
        try c.encodeIfPresent(database, forKey: .database)
        switch command {
        case .ping, .status: break
        case let .say(text, rate, volume, locale):
            try c.encodeIfPresent(text, forKey: .text)
            try c.encodeIfPresent(rate, forKey: .rate)
            try c.encodeIfPresent(volume, forKey: .volume)
            try c.encodeIfPresent(locale, forKey: .locale)
        case let .preview(child, event, intensity, locale):
            try c.encodeIfPresent(child, forKey: .child)
            try c.encodeIfPresent(event, forKey: .event)
            try c.encodeIfPresent(intensity, forKey: .intensity)
            try c.encodeIfPresent(locale, forKey: .locale)
        case let .press(action, child, locale):
            try c.encodeIfPresent(child, forKey: .child)
            if case .card(let routineId) = action { try c.encodeIfPresent(routineId, forKey: .routineId) }
            try c.encodeIfPresent(locale, forKey: .locale)
        case .state(let child), .subscribe(let child):
            try c.encodeIfPresent(child, forKey: .child)
        }
    }
}

/// The reply to one request: `ok` and one of the results, or an error with a stable code.
public struct ServiceReply: Codable, Equatable, Sendable {
    public var id: Int?
    public var ok: Bool
    public var error: ServiceFailure?
    public var status: ServiceStatus?
    public var press: PressResult?
    public var said: SayResult?
    public var screen: ScreenSnapshot?

    public init(id: Int?, ok: Bool, error: ServiceFailure? = nil, status: ServiceStatus? = nil,
                press: PressResult? = nil, said: SayResult? = nil, screen: ScreenSnapshot? = nil) {
        self.id = id; self.ok = ok; self.error = error; self.status = status; self.press = press; self.said = said
        self.screen = screen
    }

    static func failure(_ id: Int?, _ code: ServiceFailure.Code, _ message: String) -> ServiceReply {
        ServiceReply(id: id, ok: false, error: ServiceFailure(code: code, message: message))
    }
}

/// Why a request was refused. The code is for programs (the command line says it in the user's
/// language); the message is for logs and pages: a `failed` request's is in the service's
/// language (`ServiceHost.failed`), the others' English.
public struct ServiceFailure: Codable, Equatable, Sendable, Error {
    public enum Code: String, Codable, Sendable {
        case badRequest, lineTooLong, unknownOperation, otherDatabase, childNotFound, childAmbiguous,
             noActiveSet, invalidValue, busy, failed
    }
    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
}

/// What `status` answers.
public struct ServiceStatus: Codable, Equatable, Sendable {
    public var pid: Int32
    public var uptimeSeconds: Double
    public var database: String
    public var socket: String
    public var output: String
    public var children: [ChildStatus]
    /// The guardian pages on the home network, when `--guardian-lan` serves them.
    public var guardianLAN: GuardianLANStatus?
    /// The big buttons in use: `--button`s of this run, then those stored for the device.
    public var buttons: [ServiceButtonStatus]?
    /// The haptic stand-ins in use (the device's setting, as opened).
    public var haptics: ServiceHapticsStatus?
}

/// A big button the service reads.
public struct ServiceButtonStatus: Codable, Equatable, Sendable {
    public var path: String
    /// `stored` (steppie buttons add) or `commandLine` (serve --button).
    public var source: String
    /// The stored button's id.
    public var id: String?
    /// The child its presses are for; nil: `serve --child`, else the only child.
    public var child: String?
    /// The key map (`KEY_ENTER=done,*=next`); nil: any key is done.
    public var map: String?
    /// `present` (open and read) or `absent` (not plugged in, or not usable yet: tried every 500 ms).
    public var state: String
    /// Why an absent button could not be opened (`button.device.*` catalog key), when known; for a
    /// present one, `service.log.buttonSameDevice` when another button reads the same device.
    public var problem: String?
    /// The path of the button that already reads this one's device (its presses count there, once).
    public var sameDeviceAs: String?

    public init(path: String, source: String, id: String? = nil, child: String? = nil, map: String? = nil, state: String,
                problem: String? = nil, sameDeviceAs: String? = nil) {
        self.path = path; self.source = source; self.id = id; self.child = child; self.map = map; self.state = state
        self.problem = problem; self.sameDeviceAs = sameDeviceAs
    }
}

/// The haptic stand-ins in use.
public struct ServiceHapticsStatus: Codable, Equatable, Sendable {
    public var audioPulse: Bool
    public var rumble: HapticOutputStatus?
    public var log: HapticOutputStatus?

    public init(audioPulse: Bool, rumble: HapticOutputStatus? = nil, log: HapticOutputStatus? = nil) {
        self.audioPulse = audioPulse; self.rumble = rumble; self.log = log
    }
}

/// A haptic output the device's setting names: `present` when it is open, else `absent`.
public struct HapticOutputStatus: Codable, Equatable, Sendable {
    public var path: String
    public var state: String

    public init(path: String, state: String) {
        self.path = path; self.state = state
    }
}

/// Where the guardian pages are served on the home network and the certificate's fingerprint,
/// which a guardian compares with what the phone's browser shows on first connect.
public struct GuardianLANStatus: Codable, Equatable, Sendable {
    public var url: String
    /// SHA-256 of the DER certificate, colon-separated uppercase hex (`AB:CD:…`).
    public var fingerprint: String
    public init(url: String, fingerprint: String) {
        self.url = url
        self.fingerprint = fingerprint
    }
}

/// One child's runtime as the service holds it.
public struct ChildStatus: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var completed: Int
    public var total: Int
    public var focus: String?
    public var focusTitle: String?
    public var allDone: Bool
}

/// What a press did: whether it was saved, and the progress after it.
public struct PressResult: Codable, Equatable, Sendable {
    public var child: String
    /// The operation of the press (`done`, `undo`, `next`, `press`).
    public var action: ServiceOperation
    /// True when the press changed the database (a completion or an undo was saved).
    public var saved: Bool
    /// What the child's screen says after the press, or why nothing changed when nothing did.
    public var notice: PressNotice?
    public var completed: Int
    public var total: Int
    public var focus: String?
    public var focusTitle: String?
}

/// The notice of a press (docs/service.md lists them; `ServiceWireTests` checks the list).
public enum PressNotice: String, Codable, CaseIterable, Sendable {
    /// Undo after the window closed, or with nothing to undo.
    case undoRefused
    /// The completion could not be saved (the screen says so; nothing changed).
    case saveFailed
    /// The undo could not be saved.
    case undoFailed
    /// Everything is done already: nothing to complete.
    case allDone
    /// Nothing changed for another reason (a press while a save was in flight).
    case unchanged
}

/// What `state` answers: everything a screen draws, as the service's runtime holds it.
public struct ScreenSnapshot: Codable, Equatable, Sendable {
    public var child: Child
    public var state: ChildModeState
}

/// What `say` answers: the sentence is playing.
public struct SayResult: Codable, Equatable, Sendable {
    public var samples: Int
}
