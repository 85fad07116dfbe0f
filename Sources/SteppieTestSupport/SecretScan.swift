import Foundation

/// Looks for a short secret (a four-digit PIN, a six-digit recovery code) in bytes that also hold
/// random material: hex ids and version stamps, base64 hashes, millisecond times. Any four digits
/// turn up inside such runs by chance now and then (one clean-clone run found "8361" inside a
/// stamp), so a plain `contains` fails by luck. A secret that was stored, logged or passed as an
/// argument stands on its own: the characters on either side of it are not letters or digits
/// (a quote, a separator, a record header byte, the end of the text). An occurrence inside a
/// longer run of letters and digits is chance, not a leak.
public enum SecretScan {
    /// Whether `secret` occurs in `bytes` with no ASCII letter or digit right before or after it.
    public static func standsAlone(_ secret: String, in bytes: some Collection<UInt8>) -> Bool {
        let needle = Array(secret.utf8)
        let hay = Array(bytes)
        guard !needle.isEmpty, hay.count >= needle.count else { return false }
        var i = 0
        while i + needle.count <= hay.count {
            if hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) {
                let before = i == 0 ? nil : hay[i - 1]
                let after = i + needle.count == hay.count ? nil : hay[i + needle.count]
                if !isAlphanumeric(before), !isAlphanumeric(after) { return true }
            }
            i += 1
        }
        return false
    }

    public static func standsAlone(_ secret: String, in text: String) -> Bool {
        standsAlone(secret, in: Array(text.utf8))
    }

    private static func isAlphanumeric(_ byte: UInt8?) -> Bool {
        guard let b = byte else { return false }
        return (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
    }
}
