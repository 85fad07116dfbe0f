import SteppieFiles
import CSndfile
import Foundation
import SteppieCore

/// Reading and writing sound files through libsndfile, in the engine's format.
public enum SoundFile {
    /// Reads any file libsndfile understands and converts it to 22050 Hz mono float.
    public static func read(path: String) throws -> [Float] {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw FeedbackError.soundFile(path: path, reason: lastError(nil))
        }
        defer { sf_close(file) }
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0, info.frames >= 0 else {
            throw FeedbackError.soundFile(path: path, reason: "no audio channels")
        }
        var interleaved = [Float](repeating: 0, count: Int(info.frames) * channels)
        let got = interleaved.withUnsafeMutableBufferPointer { buf in
            sf_readf_float(file, buf.baseAddress, info.frames)
        }
        guard got >= 0 else { throw FeedbackError.soundFile(path: path, reason: lastError(file)) }
        var mono = [Float](repeating: 0, count: Int(got))
        for frame in 0..<Int(got) {
            var sum: Float = 0
            for c in 0..<channels { sum += interleaved[frame * channels + c] }
            mono[frame] = sum / Float(channels)
        }
        return Resampler(from: Int(info.samplerate), to: SampleFormat.rate).process(mono)
    }

    /// Writes 16-bit mono PCM WAV at `sampleRate` (the engine rate unless told).
    public static func writeWAV(_ samples: [Int16], to path: String, sampleRate: Int = SampleFormat.rate) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        // Opened by us: refused when not a regular file (a FIFO would block, a device be
        // overwritten), created owner-only; libsndfile closes the descriptor.
        let fd: Int32
        do { fd = try OwnerOnly.openForWriting(path) } catch {
            throw FeedbackError.wavFile(path: path, reason: String(describing: error))
        }
        guard let file = sf_open_fd(fd, Int32(SFM_WRITE), &info, 1) else {
            close(fd)
            throw FeedbackError.wavFile(path: path, reason: lastError(nil))
        }
        let wrote = samples.withUnsafeBufferPointer { buf in
            sf_writef_short(file, buf.baseAddress, sf_count_t(samples.count))
        }
        let reason = lastError(file)
        let closed = sf_close(file)
        guard wrote == sf_count_t(samples.count) else { throw FeedbackError.wavFile(path: path, reason: reason) }
        guard closed == 0 else { throw FeedbackError.wavFile(path: path, reason: "close failed (\(closed))") }
    }

    private static func lastError(_ file: OpaquePointer?) -> String {
        guard let message = sf_strerror(file) else { return "unknown libsndfile error" }
        return String(cString: message)
    }
}

extension SoundFile {
    /// The live `AudioDecoder` of recordings: libsndfile decodes the file (any format it reads);
    /// its length at the engine's rate and its loudest sample, or libsndfile's reason.
    public static let decodeRecording: AudioDecoder = { path in
        do {
            let samples = try SoundFile.read(path: path)
            let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
            return .success(DecodedAudio(milliseconds: Int((Double(samples.count) * 1000 / Double(SampleFormat.rate)).rounded()), peak: peak))
        } catch let FeedbackError.soundFile(_, reason) {
            return .failure(AudioDecodeFailure(reason: reason))
        } catch {
            return .failure(AudioDecodeFailure(reason: String(describing: error)))
        }
    }
}
