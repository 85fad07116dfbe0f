import CHTTP

/// One request while it arrives: its head, its route and the route's plan, and its body — raw
/// bytes (JSON taps) or a form parsed piece by piece by libmicrohttpd's post processor
/// (URL-encoded and multipart), each under a byte limit. A file the plan spools goes to its sink
/// as it arrives, so memory stays bounded whatever its size; other files stay in memory (the
/// plan's limit caps them).
final class HTTPRequestBody {
    let head: HTTPHead
    /// The route that answers (nil: none matched).
    let route: HTTPRoute?
    let plan: HTTPBodyPlan
    /// Every byte of the body counts against this; past it the rest is dropped and the request refused.
    let limit: Int
    private(set) var received = 0
    private(set) var overLimit = false
    private(set) var malformed = false
    private(set) var raw: [UInt8] = []
    private var processor: OpaquePointer?
    private var textBytes = 0
    private(set) var fields: [String: [UInt8]] = [:]
    private(set) var files: [String: HTTPUploadedFile] = [:]
    /// What the plan's start holds until the request is answered.
    var hold: (any Sendable)?
    var destination: HTTPBodyPlan.Files = .memory
    /// Why file fields are not taken: their bytes are dropped as they arrive, the text fields
    /// still read, and the handler is told.
    private(set) var refusal: (any Error & Sendable)?

    init(head: HTTPHead, route: HTTPRoute?, plan: HTTPBodyPlan) {
        self.head = head; self.route = route; self.plan = plan
        limit = plan.limit
    }

    deinit { if let processor { _ = MHD_destroy_post_processor(processor) } }

    /// Takes the plan's start: where files go, and what is held until answered.
    func begin(_ start: HTTPBodyPlan.Start) {
        hold = start.hold
        destination = start.files
        if case .refused(let why) = start.files { refusal = why }
    }

    /// Sets up form parsing for a form content type; false when the type is a form that cannot be
    /// parsed (a multipart body without a boundary, for example).
    func expectForm(connection: OpaquePointer) -> Bool {
        let iterator: MHD_PostDataIterator = { cls, _, key, filename, contentType, _, data, _, size in
            guard let cls, let key else { return .NO }
            let body = Unmanaged<HTTPRequestBody>.fromOpaque(cls).takeUnretainedValue()
            return body.take(key: String(cString: key), filename: filename.map { String(cString: $0) },
                             contentType: contentType.map { String(cString: $0) },
                             bytes: data.map { UnsafeRawBufferPointer(start: $0, count: size) }) ? .YES : .NO
        }
        processor = MHD_create_post_processor(connection, 16 * 1024, iterator, Unmanaged.passUnretained(self).toOpaque())
        if processor == nil { malformed = true }
        return processor != nil
    }

    /// One piece of the body as it arrives.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard !overLimit, !malformed else { return }
        received += bytes.count
        if received > limit {
            overLimit = true
            return
        }
        if let processor {
            let ok = bytes.withMemoryRebound(to: CChar.self) { MHD_post_process(processor, $0.baseAddress, $0.count) }
            if ok != .YES { malformed = true }
        } else {
            raw.append(contentsOf: bytes)
        }
    }

    /// Ends the form; a body cut short counts as malformed.
    func finish() {
        if let processor {
            if MHD_destroy_post_processor(processor) != .YES { malformed = true }
            self.processor = nil
        }
        for file in files.values { file.sink?.finishWriting() }
    }

    /// The request is answered: what the plan held is given back (before libmicrohttpd has sent
    /// the answer, so a client that sends its next upload as soon as it reads this answer finds
    /// its place free), and the files nobody kept are dropped.
    func answered() {
        hold = nil
        files.removeAll()
    }

    /// The text fields, decoded as UTF-8 (a field that is not UTF-8 makes the body malformed).
    func textFields() -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in fields {
            guard let text = String(validating: v, as: UTF8.self) else {
                malformed = true
                continue
            }
            out[k] = text
        }
        return out
    }

    private func take(key: String, filename: String?, contentType: String?, bytes: UnsafeRawBufferPointer?) -> Bool {
        guard key.utf8.count <= 64 else {
            malformed = true
            return false
        }
        let chunk = bytes ?? UnsafeRawBufferPointer(start: nil, count: 0)
        if filename != nil, refusal != nil { return true }
        if let filename, case .spooled(let field, let open) = destination {
            // One file per request, in the plan's field; any other file is dropped.
            guard key == field else { return true }
            do {
                if files[key] == nil {
                    files[key] = HTTPUploadedFile(filename: String(filename.prefix(255)), contentType: contentType ?? "", bytes: [],
                                                  sink: try open())
                }
                try files[key]?.sink?.write(chunk)
            } catch {
                // The partial file goes at once (dropping the last reference to its sink).
                refusal = error
                files[key] = nil
            }
            return true
        }
        if let filename {
            // Appended in place: a copy of the file taken out of the dictionary would make every
            // piece copy the whole file so far (quadratic: minutes for a 48 MiB upload).
            files[key, default: HTTPUploadedFile(filename: String(filename.prefix(255)), contentType: contentType ?? "", bytes: [])]
                .bytes.append(contentsOf: chunk)
            return true
        }
        textBytes += chunk.count
        guard textBytes <= HTTPBodyPlan.textLimit, fields.count < 256 || fields[key] != nil else {
            overLimit = true
            return false
        }
        fields[key, default: []].append(contentsOf: chunk)
        return true
    }
}
