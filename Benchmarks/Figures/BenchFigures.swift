public import LowbandReports

/// Every suite's derived figures, in the order their rows are written: what
/// `lowband-bench-derive` applies after `lowband bench import`.
///
/// Each suite declares its own (``CodecFigures``, ``CompressionFigures``, ``StartupFigures``,
/// ``PushFigures``, ``RelayFigures``, ``VirtualTimeFigures``) in this module, apart from the kits' workloads, so that applying them needs
/// a build of LowbandReports only — not a release build of swift-protobuf, the server and the
/// proxy when only the start-up suite ran. A new suite adds its value here.
public enum BenchFigures {
    public static let all = CodecFigures.declared + CompressionFigures.declared + StartupFigures.declared + PushFigures.declared
        + RelayFigures.declared + VirtualTimeFigures.declared
}
