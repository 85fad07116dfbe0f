import SteppieCore

extension FeedbackError: CatalogDescribable {
    /// Which call or file failed, in the reader's words (`cli.feedback.error.*`): the libraries'
    /// own reasons are English, so they stay out of the sentence (the log keeps them).
    public var catalogMessage: CatalogMessage {
        switch self {
        case .speech(let call, let code):
            CatalogMessage("cli.feedback.error.speech", ["call": .detail(call), "code": .detail(String(code))])
        case .soundFile(let path, _): CatalogMessage("cli.feedback.error.soundFile", ["path": .detail(Validator.printablePath(path))])
        case .missingSound(let name, let directory):
            CatalogMessage("cli.feedback.error.missingSound", ["name": .text("\(name).wav"), "path": .detail(Validator.printablePath(directory))])
        case .wavFile(let path, _): CatalogMessage("cli.feedback.error.wavFile", ["path": .detail(Validator.printablePath(path))])
        case .pulse(let call, _): CatalogMessage("cli.feedback.error.pulse", ["call": .detail(call)])
        case .hapticDevice(let path, _), .noRumble(let path):
            CatalogMessage("cli.feedback.error.haptic", ["path": .detail(Validator.printablePath(path))])
        case .hapticLog(let path, _): CatalogMessage("cli.feedback.error.hapticLog", ["path": .detail(Validator.printablePath(path))])
        }
    }

    /// For the log: the library's or the system's own words, after the sentence.
    public var logMessage: CatalogMessage {
        switch self {
        case .soundFile(_, let reason), .wavFile(_, let reason), .pulse(_, let reason), .hapticDevice(_, let reason),
             .hapticLog(_, let reason):
            catalogMessage.withLogDetail(reason)
        case .speech, .missingSound, .noRumble: catalogMessage
        }
    }
}
