import CompressionBench

/// The workload of one input and method, built in a benchmark's setup and dropped in its
/// teardown, so registering the whole suite allocates nothing.
final class WorkloadSlot {
    let input: CompressionInput
    let method: CompressionMethod
    private var prepared: CompressionWorkload?

    init(input: CompressionInput, method: CompressionMethod) {
        self.input = input
        self.method = method
    }

    func prepare() throws {
        prepared = try CompressionWorkload(input: input, method: method)
    }

    func workload() throws -> CompressionWorkload {
        guard let prepared else {
            throw CompressionBenchError(.invalidArgument, "\(input.id)/\(method.id) ran before its setup")
        }
        return prepared
    }

    func release() {
        prepared = nil
    }
}
