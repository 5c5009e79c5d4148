import LowbandLZ4

/// What a comparison measures, before anything is measured: the payloads written in every wire
/// format, the files left, the formats, and each file × format's codec. Shared by the timing in
/// ``CodecComparison`` and the counting of ``CodecCountRun``, so both measure the same codecs
/// with the same dictionaries.
struct CodecPlan {
    /// The payloads that every format can write, in file order, each with its file's index.
    let prepared: [(payload: PayloadSet.Payload, prepared: PreparedPayload)]
    /// The files left, in the order given.
    let files: [String]
    /// The formats measured on every file, in ``CodecFormat/allCases`` order.
    let formats: [CodecFormat]
    /// Payloads left out, each `FILE#N: what was wrong`; their files are left out whole.
    let failures: [String]
    let proto: ProtoTarget?

    /// `set` prepared, with the protobuf format when `proto` is given.
    ///
    /// - Throws: ``CodecComparison/Failure`` when no file is left.
    init(_ set: PayloadSet, proto: ProtoTarget?) throws(CodecComparison.Failure) {
        var prepared: [(payload: PayloadSet.Payload, prepared: PreparedPayload)] = []
        var failures: [String] = []
        var badFiles: Set<String> = []
        for payload in set.payloads where !badFiles.contains(payload.file) {
            do {
                prepared.append((payload, try PreparedPayload(payload.value, origin: payload.origin, proto: proto)))
            } catch {
                failures.append(error.description)
                badFiles.insert(payload.file)
            }
        }
        prepared.removeAll { badFiles.contains($0.payload.file) }
        self.prepared = prepared
        self.failures = failures
        self.proto = proto
        files = set.fileNames.filter { !badFiles.contains($0) }
        guard !files.isEmpty else { throw CodecComparison.Failure(description: failures.first ?? "no payload to compare") }
        let fileCount = files.count
        formats = CodecFormat.allCases.filter { ($0.wire != .protobuf || proto != nil) && (!$0.compression.usesDictionary || fileCount >= 2) }
    }

    /// The indices into ``prepared`` of `file`'s payloads.
    func indices(of file: String) -> [Int] {
        prepared.indices.filter { prepared[$0].payload.file == file }
    }

    /// `format`'s codec for `file`: a dictionary compression's dictionary is built from the other
    /// files' payloads only.
    func codec(_ file: String, _ format: CodecFormat) throws(CodecComparison.Failure) -> FormatCodec {
        let dictionary = format.compression.usesDictionary
            ? LZ4Dictionary(samples: prepared.filter { $0.payload.file != file }.map { $0.prepared.bytes(format.wire) })
            : nil
        do {
            return try FormatCodec(format: format, dictionary: dictionary, proto: proto)
        } catch {
            throw CodecComparison.Failure(description: "\(format): \(error)")
        }
    }

    /// Every `stride`-th payload of the set, at most `limit` of them: `index % stride == 0`.
    func stride(measuringAtMost limit: Int) -> Int {
        max(1, (prepared.count + limit - 1) / limit)
    }
}
