import CompressionBench
import LowbandLZ4

/// Inputs, dictionary and methods built once for all tests (generating them takes a moment).
enum Shared {
    static let inputs: [CompressionInput] = {
        do { return try CompressionInput.catalogue() } catch { fatalError("fixtures do not encode: \(error)") }
    }()

    static let dictionary: LZ4Dictionary = {
        do { return try CompressionDictionary.make() } catch { fatalError("dictionary samples do not encode: \(error)") }
    }()

    static let zstdDictionary: ZstdDictionary = {
        do { return try ZstdDictionary.make() } catch { fatalError("the zstd dictionary does not train: \(error)") }
    }()

    static let methods = CompressionMethod.catalogue(dictionary: dictionary, zstdDictionary: zstdDictionary)
    static let methodIDs = methods.map(\.id)

    static func input(_ id: String) -> CompressionInput {
        guard let input = inputs.first(where: { $0.id == id }) else { fatalError("no input \(id)") }
        return input
    }

    static func method(_ id: String) -> CompressionMethod {
        guard let method = methods.first(where: { $0.id == id }) else { fatalError("no method \(id)") }
        return method
    }
}
