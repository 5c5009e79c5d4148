import FuzzSupport
import LowbandMessagePack

/// The MessagePack ⇄ JSON converter on any text: a document that parses renders to JSON that
/// parses to the same value, and encodes to MessagePack that reads back to it.
///
/// Bad input must give a `MessagePackJSONError` naming a line and column inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let value: MessagePackValue
    do throws(MessagePackJSONError) {
        value = try MessagePackJSON.parse(bytes)
    } catch {
        require((0 ... bytes.count).contains(error.offset) && error.line >= 1 && error.column >= 1, "error outside the input: \(error)")
        return 0
    }
    for pretty in [false, true] {
        let json = MessagePackJSON.renderUTF8(value, pretty: pretty)
        do {
            let again = try MessagePackJSON.parse(json, maxDepth: 4 * MessagePackLimits.defaultMaxDepth)
            require(again == value, "rendering and parsing again changed the value: \(String(decoding: json, as: UTF8.self))")
        } catch {
            finding("rendered JSON does not parse: \(error)")
        }
    }
    do {
        let encoded = try value.encoded()
        let back = try MessagePackValue(decoding: encoded)
        require(back == value, "MessagePack round trip changed the value")
    } catch {
        finding("a parsed value does not round-trip through MessagePack: \(error)")
    }
    return 0
}
