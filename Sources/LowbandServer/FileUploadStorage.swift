package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Upload bytes in files, one per upload (`<directory>/<number>.part`), so a server holding
/// many uploads keeps none of their bytes in memory.
///
/// Each piece is written at its offset (cutting off any unacknowledged tail left by a crash)
/// and, when `syncs` is set, `fsync`ed before the write returns, so the store's commit of the
/// new offset never runs ahead of the bytes on disk.
package struct FileUploadStorage: UploadStorage {
    /// The folder holding the files.
    package let directory: String
    /// Whether each write is `fsync`ed (on for `--data`; a temporary folder does not need it).
    package let syncs: Bool

    /// Uses `directory` (created when missing).
    package init(directory: String, syncs: Bool) throws(ServerStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ServerStoreError(.io, "cannot create the upload folder \(directory): \(error.localizedDescription)")
        }
        self.directory = directory
        self.syncs = syncs
    }

    /// The file holding upload `number`'s bytes.
    package func path(ofUpload number: Int64) -> String {
        directory + "/\(number).part"
    }

    package mutating func write(_ piece: Data, toUpload number: Int64, at offset: Int64) throws(ServerStoreError) {
        let path = path(ofUpload: number)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("open", path) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(offset)) == 0 else { throw failure("truncate", path) }
        var written = 0
        while written < piece.count {
            let result = piece.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(offset) + off_t(written))
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw failure("write", path) }
            written += result
        }
        if syncs, fsync(descriptor) != 0 { throw failure("sync", path) }
    }

    package func bytes(ofUpload number: Int64) throws(ServerStoreError) -> [UInt8] {
        let path = path(ofUpload: number)
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else { throw failure("read", path) }
        return [UInt8](data)
    }

    package mutating func remove(upload number: Int64) throws(ServerStoreError) {
        let path = path(ofUpload: number)
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("remove", path) }
    }

    /// The size of upload `number`'s file; nil when there is none.
    package func size(ofUpload number: Int64) -> Int64? {
        var status = stat()
        guard stat(path(ofUpload: number), &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// Cuts upload `number`'s file to `length` bytes (what its record acknowledged).
    package func truncate(upload number: Int64, to length: Int64) throws(ServerStoreError) {
        let path = path(ofUpload: number)
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", path) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw failure("truncate", path) }
        if syncs, fsync(descriptor) != 0 { throw failure("sync", path) }
    }

    /// The upload numbers that have a file, ascending.
    package func storedNumbers() throws(ServerStoreError) -> [Int64] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ServerStoreError(.io, "cannot list the upload folder \(directory): \(error.localizedDescription)")
        }
        return names.compactMap { name in
            name.hasSuffix(".part") ? Int64(name.dropLast(5)) : nil
        }.sorted()
    }

    private func failure(_ operation: String, _ path: String) -> ServerStoreError {
        ServerStoreError(.io, "cannot \(operation) the upload file \(path): \(String(cString: strerror(errno)))")
    }
}
