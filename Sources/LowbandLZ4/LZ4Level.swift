import CLZ4

/// How hard LZ4 works: the fast compressor with an acceleration factor, or the HC compressor.
///
/// Decompression speed does not depend on the level; only compression speed and ratio do.
public enum LZ4Level: Sendable, Hashable {
    /// The fast compressor; `acceleration` 1 is the best ratio, larger values trade ratio for
    /// speed (1 ... ``maximumAcceleration``).
    case fast(acceleration: Int = 1)
    /// The high-compression (HC) compressor, `level` 1 ... 12 (``highLevels``); 9 is liblz4's
    /// default, 10 and above use the optimal parser and are much slower.
    ///
    /// In the frame format liblz4 runs levels 1 and 2 as `.fast(acceleration: 1)`, like `lz4 -1`.
    case high(level: Int)

    /// `.fast(acceleration: 1)`, what `lz4` uses without options.
    public static let `default` = LZ4Level.fast(acceleration: 1)

    /// The largest acceleration liblz4 honours (`LZ4_ACCELERATION_MAX` in lz4.c).
    public static let maximumAcceleration = 65_537

    /// The HC levels liblz4 accepts (`LZ4HC_CLEVEL_MAX` in lz4hc.h).
    public static let highLevels: ClosedRange<Int> = 1...Int(LZ4HC_CLEVEL_MAX)

    /// The level `lz4 -N` selects: 1 and 2 are fast, 3 ... 12 are HC.
    ///
    /// - Throws: `LZ4Error` with code `invalidLevel` when `level` is outside 1 ... 12.
    public init(commandLineLevel level: Int) throws(LZ4Error) {
        guard Self.highLevels.contains(level) else {
            throw LZ4Error(.invalidLevel, "compression level \(level) is outside 1...\(Self.highLevels.upperBound)")
        }
        self = level < Int(LZ4HC_CLEVEL_MIN) ? .fast(acceleration: 1) : .high(level: level)
    }

    /// Checks that the acceleration or HC level is in the range liblz4 supports.
    ///
    /// - Throws: `LZ4Error` with code `invalidLevel`.
    public func validate() throws(LZ4Error) {
        switch self {
        case .fast(let acceleration):
            guard (1...Self.maximumAcceleration).contains(acceleration) else {
                throw LZ4Error(
                    .invalidLevel,
                    "acceleration \(acceleration) is outside 1...\(Self.maximumAcceleration)"
                )
            }
        case .high(let level):
            guard Self.highLevels.contains(level) else {
                throw LZ4Error(.invalidLevel, "HC level \(level) is outside \(Self.highLevels)")
            }
        }
    }

    /// The `compressionLevel` of `LZ4F_preferences_t`: negative values select acceleration
    /// `1 - value`, 0 is acceleration 1, positive values are HC levels. Call on a validated level.
    var frameCompressionLevel: Int32 {
        switch self {
        case .fast(let acceleration): Int32(1 - acceleration)
        case .high(let level): Int32(level)
        }
    }
}
