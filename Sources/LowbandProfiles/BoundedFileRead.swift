import Foundation
import LowbandShaper

/// Reads a whole file a user hands the shaper (a profile, a trace) with a cap, so a wrong path
/// (`/dev/zero`, a video, a log) is one clear error instead of all of memory.
enum BoundedFileRead {
    /// The largest profile file: real ones are under 4 KiB.
    static let maximumProfileBytes = 1 << 20
    /// The largest trace file: an hour of a 100 Mbit/s link is about 30 MiB of timestamps.
    static let maximumTraceBytes = 64 << 20

    /// The file's bytes; `what` names the kind of file in the error ("profile", "trace").
    static func read(_ path: String, maximumBytes: Int, what: String) throws(ProfileError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the \(what) file" : "no such file"
            throw ProfileError(.unreadableFile, file: path, reason: reason)
        }
        defer { try? handle.close() }
        // One byte more than allowed tells "exactly the cap" from "larger", also for files whose
        // size the file system does not know (pipes, /dev/zero).
        let data: Data
        do {
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            throw ProfileError(.unreadableFile, file: path, reason: "cannot read the \(what) file: \(error.localizedDescription)")
        }
        guard data.count <= maximumBytes else {
            throw ProfileError(
                .unreadableFile, file: path,
                reason: "the \(what) file is larger than \(maximumBytes >> 20) MiB; is this the right file?"
            )
        }
        return data
    }
}
