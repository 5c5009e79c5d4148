import FuzzSupport
import LowbandMessagePack

/// `MessagePackReader` on any bytes: the first value is read as a tree and skipped, and both
/// must agree; a value that reads is written back and converted to JSON and back unchanged.
///
/// Bad input must give a `MessagePackError` (typed throws), never a crash or an allocation
/// beyond what the input could hold (the reader checks every length against what remains).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    var skipper = MessagePackReader(bytes)
    let skipped = Result { () throws(MessagePackError) in try skipper.skipValue() }
    var reader = MessagePackReader(bytes)
    let value: MessagePackValue
    do throws(MessagePackError) {
        value = try reader.readValue()
    } catch {
        // A value that does not read may still skip (skipping checks neither UTF-8, timestamps
        // nor depth), but a failure must name an offset inside the input.
        require(error.offset.map { (0 ... bytes.count).contains($0) } ?? false, "error without a valid offset: \(error)")
        return 0
    }
    guard case .success = skipped, skipper.offset == reader.offset else {
        finding("readValue ended at \(reader.offset) but skipValue gave \(skipped) at \(skipper.offset)")
    }
    let encoded: [UInt8]
    do {
        encoded = try value.encoded()
    } catch {
        finding("a value read from \(bytes.count) bytes does not write: \(error)")
    }
    do {
        let again = try MessagePackValue(decoding: encoded)
        require(again == value, "re-encoded value reads back differently")
    } catch {
        finding("re-encoded value does not read back: \(error)")
    }
    // The JSON form converts back to the same value (docs/MSGPACK-JSON.md); tagged forms nest
    // up to three JSON containers per MessagePack one.
    let json = MessagePackJSON.renderUTF8(value)
    do {
        let parsed = try MessagePackJSON.parse(json, maxDepth: 4 * MessagePackLimits.defaultMaxDepth)
        require(parsed == value, "JSON round trip changed the value: \(String(decoding: json, as: UTF8.self))")
    } catch {
        finding("rendered JSON does not parse: \(error): \(String(decoding: json.prefix(300), as: UTF8.self))")
    }
    return 0
}
