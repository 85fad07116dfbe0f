import Foundation
import SteppieCore

/// One request on the control socket: one JSON object per line. `id` is echoed in the reply.
///
/// Operations: `status`, `state`, `preview` (`event`, `intensity`), `say` (`text`, `rate`, `volume`, `locale`), `done`, `undo`, `next`,
/// `press` (`routineId`), `subscribe` (then event lines follow), `ping`. `child` (a name or an
/// id) selects the child of `done`/`undo`/`next`/`press`/`subscribe`; without it, the only child.
/// `database`, when given, must be the service's own database (else `otherDatabase`), so a
/// command aimed at another file never reaches this service.
public struct ServiceRequest: Codable, Equatable, Sendable {
    public var id: Int?
    public var op: String
    public var database: String?
    public var child: String?
    public var routineId: String?
    public var text: String?
    public var rate: Double?
    public var volume: Double?
    public var locale: String?
    /// `preview`: the feedback event (`completed`, `undone`, `next`, `allDone`, `announce`,
    /// `reminder`, `error`) and the intensity to hear it at (default: the child's).
    public var event: String?
    public var intensity: String?

    public init(id: Int? = nil, op: String, database: String? = nil, child: String? = nil, routineId: String? = nil,
                text: String? = nil, rate: Double? = nil, volume: Double? = nil, locale: String? = nil,
                event: String? = nil, intensity: String? = nil) {
        self.id = id; self.op = op; self.database = database; self.child = child; self.routineId = routineId
        self.text = text; self.rate = rate; self.volume = volume; self.locale = locale
        self.event = event; self.intensity = intensity
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
/// language); the message is English for logs.
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
    public var action: String
    /// True when the press changed the database (a completion or an undo was saved).
    public var saved: Bool
    /// Why nothing changed, when nothing did (`undoRefused`, `saveFailed`, `allDone`, `notCurrent`).
    public var notice: String?
    public var completed: Int
    public var total: Int
    public var focus: String?
    public var focusTitle: String?
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
