/// Small image files the photo checks accept, for tests of every module that takes photos.
public enum TestImages {
    /// A PNG's signature and IHDR chunk (8-bit RGB, `width` × `height`, with its CRC), then
    /// `padding` bytes of `fill` (two fills give two photos of different content).
    public static func png(width: UInt32 = 2, height: UInt32 = 2, padding: Int = 32, fill: UInt8 = 0) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr: [UInt8] = Array("IHDR".utf8) + be32(width) + be32(height) + [8, 2, 0, 0, 0]
        var c: UInt32 = 0xFFFF_FFFF
        for b in ihdr {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + ihdr + be32(c ^ 0xFFFF_FFFF)
            + [UInt8](repeating: fill, count: padding)
    }
}
