import SteppieFeedback

extension ErrorText {
    /// The feedback engine's notices (sound server gone, back, a WAV file instead) in the user's language.
    static func notice(_ n: FeedbackNotice, _ t: Messages) -> String {
        switch n {
        case .serverMissing(let reason, let fallback, let retry):
            return t("cli.feedback.notice.serverMissing", ["reason": reason, "output": fallback.rawValue, "seconds": seconds(retry)])
        case .writingToFile(let path, let reason):
            return t("cli.feedback.notice.writingToFile", ["reason": reason, "path": path])
        case .serverLost(let reason, let fallback, let retry):
            return t("cli.feedback.notice.serverLost", ["reason": reason, "output": fallback.rawValue, "seconds": seconds(retry)])
        case .serverBack:
            return t("cli.feedback.notice.serverBack")
        case .hapticFailed(let reason):
            return t("cli.feedback.notice.hapticFailed", ["reason": reason])
        case .audioFailed(let call, let reason):
            return t("cli.feedback.notice.audioFailed", ["call": call, "reason": reason])
        case .speechFailed(let call, let code):
            return t("cli.feedback.notice.speechFailed", ["call": call, "code": String(code)])
        }
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(s)
    }
}
