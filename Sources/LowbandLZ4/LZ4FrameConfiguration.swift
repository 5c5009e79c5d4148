import CLZ4

/// How ``LZ4FrameCompressor`` and ``LZ4Frame/compress(_:configuration:)`` write LZ4 frames.
///
/// The defaults match the `lz4` command: fast level, 4 MiB independent blocks, a content checksum
/// and no block checksums.
public struct LZ4FrameConfiguration: Sendable, Hashable {
    /// The largest block a frame may hold, `max64KB`, `max256KB`, `max1MB` or `max4MB`; the
    /// decompressor needs about this much memory.
    public enum BlockSize: Sendable, Hashable, CaseIterable {
        case max64KB, max256KB, max1MB, max4MB

        /// The block size in bytes.
        public var byteCount: Int {
            switch self {
            case .max64KB: 64 * 1024
            case .max256KB: 256 * 1024
            case .max1MB: 1024 * 1024
            case .max4MB: 4 * 1024 * 1024
            }
        }

        var identifier: LZ4F_blockSizeID_t {
            switch self {
            case .max64KB: LZ4F_max64KB
            case .max256KB: LZ4F_max256KB
            case .max1MB: LZ4F_max1MB
            case .max4MB: LZ4F_max4MB
            }
        }
    }

    /// The compression level.
    public var level: LZ4Level
    /// The largest block the frame holds.
    public var blockSize: BlockSize
    /// Append an xxHash32 of the whole content to each frame (`lz4` does by default).
    public var contentChecksum: Bool
    /// Follow each block with an xxHash32 of its compressed bytes.
    public var blockChecksum: Bool
    /// Compress each block on its own (`lz4` default); `false` lets blocks refer to the previous
    /// 64 KiB, which compresses better with small blocks (`lz4 -BD`).
    public var independentBlocks: Bool

    /// A configuration; the defaults are the `lz4` tool's (4 MB independent blocks, a content checksum).
    public init(
        level: LZ4Level = .default,
        blockSize: BlockSize = .max4MB,
        contentChecksum: Bool = true,
        blockChecksum: Bool = false,
        independentBlocks: Bool = true
    ) {
        self.level = level
        self.blockSize = blockSize
        self.contentChecksum = contentChecksum
        self.blockChecksum = blockChecksum
        self.independentBlocks = independentBlocks
    }

    /// liblz4's preferences for this configuration.
    ///
    /// - Throws: `LZ4Error` with code `invalidLevel` when the level is out of range.
    func preferences() throws(LZ4Error) -> LZ4F_preferences_t {
        try level.validate()
        var preferences = LZ4F_preferences_t()
        preferences.compressionLevel = level.frameCompressionLevel
        preferences.frameInfo.blockSizeID = blockSize.identifier
        preferences.frameInfo.blockMode = independentBlocks ? LZ4F_blockIndependent : LZ4F_blockLinked
        preferences.frameInfo.contentChecksumFlag = contentChecksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum
        preferences.frameInfo.blockChecksumFlag = blockChecksum ? LZ4F_blockChecksumEnabled : LZ4F_noBlockChecksum
        return preferences
    }
}

/// The result of a liblz4 frame function: the size it returned, or an `LZ4Error` for its error code.
func checkFrameResult(_ result: Int, _ operation: String) throws(LZ4Error) -> Int {
    guard LZ4F_isError(result) != 0 else { return result }
    let name = String(cString: LZ4F_getErrorName(result))
    throw LZ4Error(.frame, "\(operation) failed: \(name)")
}
