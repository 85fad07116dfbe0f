import Foundation
import SteppieChildMode
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieInput
import SteppieStore

/// The control socket's requests: one JSON line in, one reply out, on the service's thread.
extension ServiceHost {
    // MARK: Requests

    func handle(_ line: String, from client: ClientConnection) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return }
        let data = Data(trimmed.utf8)
        guard let envelope = try? JSONDecoder().decode(ServiceRequest.Envelope.self, from: data) else {
            client.send(Self.encode(.failure(nil, .badRequest, "not a JSON request object")))
            return
        }
        guard ServiceOperation(rawValue: envelope.op) != nil else {
            client.send(Self.encode(.failure(envelope.id, .unknownOperation, "unknown op")))
            return
        }
        guard let request = try? JSONDecoder().decode(ServiceRequest.self, from: data) else {
            client.send(Self.encode(.failure(envelope.id, .badRequest, "a field of \(envelope.op) has the wrong type")))
            return
        }
        client.send(Self.encode(reply(to: request, from: client)))
    }

    func reply(to r: ServiceRequest, from client: ClientConnection) -> ServiceReply {
        if let db = r.database, !Self.sameFile(db, databasePath) {
            return .failure(r.id, .otherDatabase, "this service runs on \(databasePath)")
        }
        switch r.command {
        case .ping: return ServiceReply(id: r.id, ok: true)
        case .status: return ServiceReply(id: r.id, ok: true, status: status())
        case let .say(text, rate, volume, locale): return say(id: r.id, text: text, rate: rate, volume: volume, locale: locale)
        case let .preview(child, event, intensity, locale):
            return preview(id: r.id, child: child, event: event, intensity: intensity, locale: locale)
        case let .press(action, child, locale): return press(id: r.id, action, child: child, locale: locale)
        case .state(let child):
            switch runtime(for: child) {
            case .success(let runtime):
                return ServiceReply(id: r.id, ok: true, screen: ScreenSnapshot(child: runtime.child, state: runtime.state))
            case .failure(let f): return ServiceReply(id: r.id, ok: false, error: f)
            }
        case .subscribe(let child):
            switch runtime(for: child) {
            case .success(let runtime):
                client.subscribedChild = runtime.child.id
                return ServiceReply(id: r.id, ok: true, status: status(only: runtime.child.id))
            case .failure(let f): return ServiceReply(id: r.id, ok: false, error: f)
            }
        }
    }

    /// The service's status, all children or one.
    public func status(only: UUID? = nil) -> ServiceStatus {
        let children = runtimes.values.filter { only == nil || $0.child.id == only }.map { Self.childStatus($0) }.sorted { $0.name < $1.name }
        return ServiceStatus(pid: getpid(), uptimeSeconds: Double(Monotonic.now() - started) / 1e9, database: databasePath,
                             socket: socketPath, output: engine.output.kind.rawValue, children: children,
                             guardianLAN: guardianLAN.flatMap { lan in guardianLANURL.map { GuardianLANStatus(url: $0, fingerprint: lan.fingerprint) } },
                             buttons: only == nil ? buttons.map(\.status) : nil, haptics: only == nil ? hapticsStatus : nil)
    }

    /// One child's status, titles in `locale` (the asking command's language), else the child's.
    static func childStatus(_ r: ChildModeRuntime, locale: String? = nil) -> ChildStatus {
        let focus = r.state.focus.flatMap { r.state.plan.item($0)?.routine }
        let locale = locale ?? r.child.profile.locale
        return ChildStatus(id: r.child.id.lowercased, name: r.child.displayName, completed: r.state.shownCompleted,
                           total: r.state.plan.total, focus: focus?.id.lowercased,
                           focusTitle: focus?.title.resolve(chosen: locale, system: nil), allDone: r.state.isAllDone)
    }

    func runtime(for selector: String?) -> Result<ChildModeRuntime, ServiceFailure> {
        guard let selector, !selector.isEmpty else {
            if runtimes.count == 1, let only = runtimes.values.first { return .success(only) }
            return .failure(ServiceFailure(code: runtimes.isEmpty ? .noActiveSet : .childAmbiguous,
                                           message: runtimes.isEmpty ? "no child has an active set" : "name the child"))
        }
        do {
            let child = try store.resolveChild(selector)
            guard let runtime = runtimes[child.id] else { return .failure(ServiceFailure(code: .noActiveSet, message: "no active set")) }
            return .success(runtime)
        } catch StoreError.childAmbiguous, StoreError.childNameAmbiguous {
            return .failure(ServiceFailure(code: .childAmbiguous, message: "more than one child has that name"))
        } catch {
            return .failure(ServiceFailure(code: .childNotFound, message: "no such child"))
        }
    }

    func press(id: Int?, _ action: PressAction, child: String?, locale: String?) -> ServiceReply {
        let runtime: ChildModeRuntime
        switch self.runtime(for: child) {
        case .success(let found): runtime = found
        case .failure(let f): return ServiceReply(id: id, ok: false, error: f)
        }
        // "Saved" is this press's own change: what other devices' presses changed meanwhile is
        // taken in first (the press would take it in itself, and count it as its own).
        runtime.catchUp()
        let before = runtime.state.plan.completedCount
        switch action {
        case .done: runtime.done()
        case .undo: runtime.undo()
        case .next: runtime.next()
        case .card(let raw):
            guard let raw, let routine = UUID(uuidString: raw) else {
                return .failure(id, .invalidValue, "routineId must be a UUID")
            }
            guard runtime.state.plan.item(routine) != nil else { return .failure(id, .invalidValue, "no such routine today") }
            runtime.press(routine)
        }
        let state = runtime.state
        let saved = state.plan.completedCount != before
        var notice: PressNotice?
        switch state.notice {
        case .undoRefused?: notice = .undoRefused
        case .saveFailed?: notice = .saveFailed
        case .undoFailed?: notice = .undoFailed
        case nil: if !saved && action != .next { notice = state.isAllDone ? .allDone : .unchanged }
        }
        let status = Self.childStatus(runtime, locale: locale)
        return ServiceReply(id: id, ok: true, press: PressResult(child: status.id, action: action.operation, saved: saved, notice: notice,
                                                                   completed: status.completed, total: status.total,
                                                                   focus: status.focus, focusTitle: status.focusTitle))
    }

    func say(id: Int?, text: String?, rate: Double?, volume: Double?, locale: String?) -> ServiceReply {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, text.utf8.count <= 4000 else {
            return .failure(id, .invalidValue, "text must be 1 to 4000 bytes")
        }
        let rate = rate ?? 1, volume = volume ?? 1
        guard rate.isFinite, Validator.ttsRateRange.contains(rate), volume.isFinite, Validator.ttsVolumeRange.contains(volume) else {
            return .failure(id, .invalidValue, "rate 0.5-1.5, volume 0-1")
        }
        do {
            let samples = try SpeechSynthesizer.shared.speak(text: text, locale: locale ?? speechLocale, rate: rate, volume: volume)
            let program = engine.output.startProgram([], interrupt: true)
            _ = engine.output.mix(samples.map { Float($0) / 32768 }, into: program, offset: 0)
            return ServiceReply(id: id, ok: true, said: SayResult(samples: samples.count))
        } catch {
            return failed(id, child: "-", error)
        }
    }

    /// Plays one feedback event at one intensity on the device's stream, as a guardian tunes by
    /// listening; the sample title is the child's current activity.
    func preview(id: Int?, child: String?, event: String?, intensity: String?, locale: String?,
                 profile override: FeedbackProfile? = nil) -> ServiceReply {
        let runtime: ChildModeRuntime
        switch self.runtime(for: child) {
        case .success(let found): runtime = found
        case .failure(let f): return ServiceReply(id: id, ok: false, error: f)
        }
        guard let event = FeedbackEvent(rawValue: event ?? "completed") else { return .failure(id, .invalidValue, "unknown event") }
        var profile = override ?? runtime.child.profile
        if let raw = intensity {
            guard let intensity = FeedbackIntensity(rawValue: raw) else { return .failure(id, .invalidValue, "unknown intensity") }
            profile.intensity = intensity
        }
        let locale = locale ?? profile.locale ?? speechLocale
        let title = runtime.state.plan.current?.routine.title.resolve(chosen: locale, system: nil) ?? ""
        let feedback = EffectiveFeedback(profile: profile)
        let context = CueContext(routineTitle: title, minutes: 5, time: "07:30", completed: runtime.state.plan.completedCount,
                                 total: runtime.state.plan.total)
        do {
            _ = try engine.play(Cue.make(event, context: context, feedback: feedback), feedback: feedback, locale: locale)
            return ServiceReply(id: id, ok: true)
        } catch {
            return failed(id, child: runtime.child.displayName, error)
        }
    }

    /// "Play on the device" from the guardian pages: the cue a press would make with `profile`
    /// (the form's values, not yet saved), on the device's open stream. 200, or 409 with the reason.
    func playForGuardian(child: UUID, event: String, profile: FeedbackProfile) -> (status: Int, body: String) {
        let reply = preview(id: nil, child: child.lowercased, event: event, intensity: nil, locale: nil, profile: profile)
        return reply.ok ? (200, "") : (409, reply.error?.message ?? "failed")
    }

    static func encode(_ reply: ServiceReply) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(reply)).map { String(decoding: $0, as: UTF8.self) } ?? "{\"ok\":false}"
    }

    static func sameFile(_ a: String, _ b: String) -> Bool {
        if let x = FileIdentity(path: a), let y = FileIdentity(path: b) { return x == y }
        return URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }
}
