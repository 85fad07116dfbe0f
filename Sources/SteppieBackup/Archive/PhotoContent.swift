/// Recognises the photos a backup may carry by their content, never by their name: JPEG (the
/// segments up to a frame header with a width and a height) and PNG (the signature and a
/// well-formed IHDR chunk whose CRC matches). The iOS and Android apps write only these two
/// (`routine-photo-*.jpg|png`, docs/backup.md); HTML or text renamed `.jpg` is refused.
public enum PhotoContent: Equatable, Sendable {
    case jpeg(width: Int, height: Int)
    case png(width: Int, height: Int)

    /// Largest photo file, 5 MiB as in the contract: what the guardian pages accept, a backup
    /// may carry and the child's page is served (one value, so none refuses what another took).
    public static let maxBytes = 5 << 20
    /// Longest side in pixels. A phone's 12 MP photo is 4032 × 3024; browsers and small GPUs
    /// start to struggle with textures past 8192 (docs/guardian-web.md, "Photos").
    public static let maxSide = 8192
    /// Most pixels (40 MP): decoded as RGBA that is 160 MiB in the kiosk's browser, which a
    /// small device can hold once; a few hand-made bytes may otherwise claim 30 000 × 30 000.
    public static let maxPixels = 40_000_000

    public var width: Int { switch self { case .jpeg(let w, _), .png(let w, _): w } }
    public var height: Int { switch self { case .jpeg(_, let h), .png(_, let h): h } }

    /// Whether the image's size in pixels is within `maxSide` and `maxPixels`.
    public var fitsLimits: Bool {
        width <= Self.maxSide && height <= Self.maxSide && width * height <= Self.maxPixels
    }

    /// What `bytes` is, or nil when it is not a JPEG or PNG image with a non-zero size.
    public static func recognise(_ bytes: UnsafeRawBufferPointer) -> PhotoContent? {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return jpeg(bytes) }
        if bytes.count >= 8, Array(bytes[0..<8]) == pngSignature { return png(bytes) }
        return nil
    }

    public static func recognise(_ bytes: [UInt8]) -> PhotoContent? {
        bytes.withUnsafeBytes { recognise($0) }
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func be16(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int { Int(b[at]) << 8 | Int(b[at + 1]) }
    private static func be32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    /// Walks the marker segments after SOI until a start-of-frame segment.
    private static func jpeg(_ b: UnsafeRawBufferPointer) -> PhotoContent? {
        var i = 2
        while i < b.count {
            guard b[i] == 0xFF else { return nil }
            while i < b.count, b[i] == 0xFF { i += 1 }   // fill bytes
            guard i < b.count else { return nil }
            let marker = b[i]
            i += 1
            switch marker {
            case 0x01, 0xD0...0xD8: continue            // markers without a length
            case 0xD9, 0xDA: return nil                 // end of image or scan data before any frame header
            default: break
            }
            guard i + 2 <= b.count else { return nil }
            let length = be16(b, i)
            guard length >= 2, i + length <= b.count else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard length >= 8 else { return nil }
                let height = be16(b, i + 3), width = be16(b, i + 5)
                guard width > 0, height > 0 else { return nil }
                return .jpeg(width: width, height: height)
            }
            i += length
        }
        return nil
    }

    /// The signature, then IHDR as the first chunk: length 13, non-zero size, matching CRC.
    private static func png(_ b: UnsafeRawBufferPointer) -> PhotoContent? {
        guard b.count >= 8 + 8 + 13 + 4, be32(b, 8) == 13,
              b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52 else { return nil }   // "IHDR"
        let width = be32(b, 16), height = be32(b, 20)
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else { return nil }
        guard CRC32.checksum(UnsafeRawBufferPointer(rebasing: b[12..<29])) == be32(b, 29) else { return nil }
        return .png(width: Int(width), height: Int(height))
    }
}

/// CRC-32 (ISO-HDLC, the polynomial of PNG and ZIP) for the few bytes of a PNG header.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
