public import LowbandShaper

extension MahimahiTrace {
    /// Reads the trace at `path` (at most `BoundedFileRead.maximumTraceBytes`).
    ///
    /// - Throws: `ProfileError` when the file cannot be read, is too large or is no trace.
    public init(contentsOf path: String) throws(ProfileError) {
        let data = try BoundedFileRead.read(path, maximumBytes: BoundedFileRead.maximumTraceBytes, what: "trace")
        try self.init(text: String(decoding: data, as: UTF8.self), file: path)
    }
}
