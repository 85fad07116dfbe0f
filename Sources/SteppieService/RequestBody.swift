import CHTTP
import Foundation

/// One request's body while it arrives: raw bytes (JSON taps) or a form parsed piece by piece by
/// libmicrohttpd's post processor (URL-encoded and multipart), each under a byte limit. A backup
/// archive goes to an owner-only file as it arrives (`spoolTo`), so memory stays bounded whatever
/// its size; photos stay in memory (the form's limit caps them).
final class RequestBody {
    /// Every byte of the body counts against this; past it the rest is dropped and the request refused.
    let limit: Int
    /// Most bytes of all text fields together (files count only against `limit`).
    static let textLimit = 64 * 1024
    private(set) var received = 0
    private(set) var overLimit = false
    private(set) var malformed = false
    private(set) var raw: [UInt8] = []
    /// The limit was lowered to the text limit because the request has no guardian session.
    var signedOut = false
    private var processor: OpaquePointer?
    private var textBytes = 0
    private(set) var fields: [String: [UInt8]] = [:]
    private(set) var files: [String: UploadedFile] = [:]
    /// The large upload's place among those arriving on the device (released once answered).
    var slot: UploadSlot?
    /// Where a file field is written as it arrives (nil: files are kept in memory).
    var spoolTo: (ledger: UploadLedger, folder: String)?
    /// Why the upload is not taken: its file bytes are dropped as they arrive, the text fields
    /// (the CSRF token) still read, and the page says why.
    var refusal: UploadRefusal?

    init(limit: Int) { self.limit = limit }

    deinit { if let processor { _ = MHD_destroy_post_processor(processor) } }

    /// Sets up form parsing for a form content type; false when the type is a form that cannot be
    /// parsed (a multipart body without a boundary, for example).
    func expectForm(connection: OpaquePointer) -> Bool {
        let iterator: MHD_PostDataIterator = { cls, _, key, filename, contentType, _, data, _, size in
            guard let cls, let key else { return .NO }
            let body = Unmanaged<RequestBody>.fromOpaque(cls).takeUnretainedValue()
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
        for file in files.values { file.spool?.finishWriting() }
    }

    /// The request is answered: its place among the uploads arriving is free for the next one
    /// (before libmicrohttpd has sent the answer, so a client that sends its next upload as soon
    /// as it reads this answer finds the place free), and a spooled archive nobody kept is removed.
    func answered() {
        slot = nil
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
        if let filename, let target = spoolTo {
            // One archive per request, in the field the page sends; any other file is dropped.
            guard key == "archive" else { return true }
            do throws(UploadRefusal) {
                if files[key] == nil {
                    files[key] = UploadedFile(filename: String(filename.prefix(255)), contentType: contentType ?? "", bytes: [],
                                              spool: try target.ledger.spool(in: target.folder))
                }
                try files[key]?.spool?.write(chunk)
            } catch {
                // The partial file goes at once (dropping the last reference unlinks it).
                refusal = error
                files[key] = nil
            }
            return true
        }
        if let filename {
            // Appended in place: a copy of the file taken out of the dictionary would make every
            // piece copy the whole file so far (quadratic: minutes for a 48 MiB upload).
            files[key, default: UploadedFile(filename: String(filename.prefix(255)), contentType: contentType ?? "", bytes: [])]
                .bytes.append(contentsOf: chunk)
            return true
        }
        textBytes += chunk.count
        guard textBytes <= Self.textLimit, fields.count < 256 || fields[key] != nil else {
            overLimit = true
            return false
        }
        fields[key, default: []].append(contentsOf: chunk)
        return true
    }
}
