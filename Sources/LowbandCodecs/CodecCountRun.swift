/// The operations `lowband codecs compare` counts, as `lowband codecs count` runs them under
/// valgrind's callgrind: every file × format's encode and decode of each counted payload, each
/// once inside ``CountedRegion`` after a warm-up call of both outside it (the first call binds
/// symbols, and zstd sets up its workspace, once per process or context, not per message).
///
/// Each region is announced by one line, in the order of the regions: `FILE-INDEX FORMAT
/// PAYLOAD-INDEX encode|decode` (tab-separated; the file's index among the files given, the
/// payload's among its file's), which ``CodecCounts`` pairs with callgrind's dumps in the same
/// order. At most ``maximumCounted`` payloads are counted, every k-th of the set as the timing
/// does; a file's count is then its counted payloads' mean times its payloads.
package enum CodecCountRun {
    /// Payloads counted at most (every k-th): under callgrind a call is some 50 times slower.
    package static let maximumCounted = 200

    /// The symbol callgrind is to count inside.
    package static let regionSymbol = CountedRegion.symbol

    /// Counts `set` (with the protobuf format when `proto` is given), giving each region's line
    /// to `announce` just before the region runs.
    ///
    /// - Throws: ``CodecComparison/Failure`` when no file is left or a format fails a payload.
    package static func run(_ set: PayloadSet, proto: ProtoTarget?, announce: (String) -> Void) throws(CodecComparison.Failure) {
        let plan = try CodecPlan(set, proto: proto)
        let stride = plan.stride(measuringAtMost: maximumCounted)
        for (fileIndex, file) in plan.files.enumerated() {
            let indices = plan.indices(of: file)
            for format in plan.formats {
                let codec = try plan.codec(file, format)
                for (number, index) in indices.enumerated() where index % stride == 0 {
                    let (payload, ready) = plan.prepared[index]
                    do {
                        let bytes = try codec.encode(ready)
                        _ = try codec.decode(bytes, of: ready)
                        announce("\(fileIndex)\t\(format)\t\(number)\tencode")
                        try CountedRegion.run { _ = try codec.encode(ready) }
                        announce("\(fileIndex)\t\(format)\t\(number)\tdecode")
                        try CountedRegion.run { _ = try codec.decode(bytes, of: ready) }
                    } catch {
                        throw CodecComparison.Failure(description: "\(payload.origin): \(format): \(error)")
                    }
                }
            }
        }
    }
}
