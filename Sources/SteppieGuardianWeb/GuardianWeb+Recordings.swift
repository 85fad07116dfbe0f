import Foundation
import SteppieCore
import SteppieStore
import SteppieHTML

/// "A familiar voice": the routine page records the routine's title in each of the device's
/// languages with the browser's microphone (`guardian.js` captures PCM with the Web Audio API and
/// sends a 16-bit mono WAV), lets the guardian hear the take, keep or redo it, and remove a kept
/// one. A kept take goes through `Store.keepRecording`, the same check and path as
/// `steppie routine record`. Nothing plays on the device from here.
extension GuardianWeb {
    func recordingsSection(_ r: Request, _ routine: Routine) -> HTML {
        let rid = routine.id.lowercased
        let title = r.title(routine.title)
        var h: HTML = "<section aria-labelledby=\"rec-h\" class=\"recordings\" data-recordings data-routine-id=\"\(rid)\""
        h += " data-csrf=\"\(r.session?.csrf ?? "")\" data-max-seconds=\"\(String(RecordingCheck.maximumMilliseconds / 1000))\""
        for (name, key) in [("recording", "web.recording.recording"), ("denied", "web.recording.denied"), ("missing", "web.recording.missing"),
                            ("insecure", "web.recording.insecure"), ("failed", "web.recording.failed"), ("saving", "web.recording.saving"),
                            ("ready", "web.recording.ready")] {
            h += " data-msg-\(name)=\"\(r.t(key))\""
        }
        h += "><h3 id=\"rec-h\">\(r.t("web.recording.title"))</h3>"
        h += "<p class=\"hint\">\(r.t("web.recording.intro", ["seconds": String(RecordingCheck.maximumMilliseconds / 1000)]))</p>"
        h += "<p class=\"rec-status\" role=\"status\" aria-live=\"polite\" data-rec-status></p><ul class=\"rec-rows\">"
        for locale in Self.locales {
            let language = r.localizer.text("web.language.name", locale: locale)
            let kept = try? r.store.recording(routineId: routine.id, locale: locale)
            let args = ["language": language, "title": title]
            h += "<li data-recording-locale=\"\(locale)\"\(kept != nil ? (" data-kept=\"true\"" as HTML) : ("" as HTML))>"
            h += "<span class=\"rec-lang\" lang=\"\(locale)\">\(language)</span> "
            if let kept {
                h += "<span class=\"rec-kept\">\(r.t("web.recording.kept", ["seconds": String(format: "%.1f", Double(kept.durationMs) / 1000)]))</span>"
                h += "<audio preload=\"none\" data-audio=\"kept\" src=\"/guardian/routine/\(rid)/recording?locale=\(locale)&amp;v=\(String(Int(kept.createdAt.timeIntervalSince1970 * 1000)))\"></audio>"
                h += "<button type=\"button\" data-rec=\"play-kept\" aria-label=\"\(r.t("web.recording.playKeptLabel", args))\">▶ \(r.t("web.recording.playKept"))</button>"
            } else {
                h += "<span class=\"rec-none\">\(r.t("web.recording.none"))</span>"
            }
            h += "<span class=\"rec-controls\" data-rec-controls hidden>"
            h += "<button type=\"button\" data-rec=\"start\" aria-label=\"\(r.t("web.recording.startLabel", args))\">● \(r.t("web.recording.start"))</button>"
            h += "<button type=\"button\" data-rec=\"stop\" hidden>■ \(r.t("web.recording.stop"))</button>"
            h += "<audio preload=\"auto\" data-audio=\"take\"></audio>"
            h += "<button type=\"button\" data-rec=\"play-take\" hidden aria-label=\"\(r.t("web.recording.playTakeLabel", args))\">▶ \(r.t("web.recording.playTake"))</button>"
            h += "<button type=\"button\" data-rec=\"keep\" hidden aria-label=\"\(r.t("web.recording.keepLabel", args))\">\(r.t("web.recording.keep"))</button>"
            h += "<button type=\"button\" data-rec=\"redo\" hidden class=\"quiet\">\(r.t("web.recording.redo"))</button></span>"
            if kept != nil {
                h += "<form method=\"post\" action=\"/guardian/routine/\(rid)/unrecord\" class=\"inline\" data-form=\"unrecord\">\(r.csrf)"
                h += "<input type=\"hidden\" name=\"locale\" value=\"\(locale)\">"
                h += "<button type=\"submit\" class=\"quiet\" aria-label=\"\(r.t("web.recording.removeLabel", args))\">\(r.t("web.recording.remove"))</button></form>"
            }
            h += "</li>"
        }
        return h + "</ul></section>"
    }

    /// A take from the page: checked and kept by the shared path; JSON for the page's script.
    func keepRecording(_ r: inout Request, _ routine: Routine) -> WebResponse {
        let back = "/guardian/routine/\(routine.id.lowercased)"
        let locale = r.web.form["locale"] ?? ""
        let outcome: Outcome
        if !Self.locales.contains(locale) {
            outcome = .failure(r.pageError(FormError(field: "locale", key: "web.error.choice")))
        } else {
            let file = r.web.files["audio"]
            let ext = ((file?.filename ?? "") as NSString).pathExtension.lowercased()
            do {
                let kept = try r.store.keepRecording(Data(file?.bytes ?? []), routineId: routine.id, locale: locale,
                                                     fileExtension: ext.isEmpty ? "wav" : ext, decode: config.decodeAudio, at: r.now)
                outcome = .success(r.t("web.recording.saved", ["seconds": String(format: "%.1f", Double(kept.recording.durationMs) / 1000)]))
            } catch let refusal as RecordingRefusal {
                outcome = .failure(PageError(field: "audio", message: Self.refusalMessage(r, refusal)))
            } catch {
                config.report("keeping a recording failed: \(error)")
                outcome = .failure(r.pageError(error))
            }
        }
        switch outcome {
        case .success(let message):
            r.nextNotice = message
            if r.web.wantsJSON { return .json("{\"ok\":true,\"message\":\(Self.jsonString(message))}") }
            return .seeOther(back)
        case .failure(let error):
            if r.web.wantsJSON { return .json("{\"ok\":false,\"error\":\(Self.jsonString(error.message))}", status: 400) }
            return routinePage(r, routine, status: 400, error: error)
        }
    }

    /// What a take came to: the notice, or the page's error.
    enum Outcome { case success(String), failure(PageError) }

    static func refusalMessage(_ r: Request, _ refusal: RecordingRefusal) -> String {
        switch refusal {
        case .empty: r.t("web.recording.empty")
        case .tooLarge: r.t("web.recording.tooLarge", ["mib": String(RecordingCheck.maximumBytes >> 20)])
        case .notAudio: r.t("web.recording.notAudio")
        case .tooLong(let ms): r.t("web.recording.tooLong", ["seconds": String(format: "%.1f", Double(ms) / 1000),
                                                            "limit": String(RecordingCheck.maximumMilliseconds / 1000)])
        case .silent: r.t("web.recording.silent")
        }
    }

    func removeRecording(_ r: inout Request, _ routine: Routine) -> WebResponse {
        let locale = r.web.form["locale"] ?? ""
        guard Self.locales.contains(locale) else {
            return routinePage(r, routine, status: 400, error: r.pageError(FormError(field: "locale", key: "web.error.choice")))
        }
        do {
            _ = try r.store.discardRecording(routineId: routine.id, locale: locale)
        } catch {
            return routinePage(r, routine, status: 500, error: r.pageError(error))
        }
        r.nextNotice = r.t("web.recording.removed")
        return .seeOther("/guardian/routine/\(routine.id.lowercased)")
    }

    /// A kept recording's audio, for the page's ▶ (behind the session, never cached).
    func recordingFile(_ r: Request, _ routine: Routine) -> WebResponse {
        guard let locale = r.web.query["locale"], Self.locales.contains(locale),
              let kept = try? r.store.recording(routineId: routine.id, locale: locale), let path = r.store.recordingPath(kept),
              let data = FileManager.default.contents(atPath: path), data.count <= RecordingCheck.maximumBytes else { return notFound(r) }
        let type: String = switch (kept.fileName as NSString).pathExtension {
        case "flac": "audio/flac"
        case "ogg", "oga": "audio/ogg"
        default: "audio/wav"
        }
        return WebResponse(status: 200, contentType: type, body: Array(data))
    }
}
