import FuzzSupport
import LowbandCBOR
import LowbandMessagePack

/// `CBORReader` on any bytes: a data item that reads is written back by `CBORWriter` to bytes
/// that read as the same value, with nothing left over.
///
/// Bad input must give a `CBORError` (typed throws) with an offset inside the input, never a
/// crash or an allocation beyond what the input could hold (every length is checked against
/// what remains before anything is allocated).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    var reader = CBORReader(bytes)
    let value: MessagePackValue
    do throws(CBORError) {
        value = try reader.readValue()
    } catch {
        require((0 ... bytes.count).contains(error.offset), "error without a valid offset: \(error)")
        return 0
    }
    require(reader.offset <= bytes.count, "read past the end: \(reader.offset) of \(bytes.count)")
    var writer = CBORWriter()
    writer.write(value)
    var again = CBORReader(writer.bytes)
    do {
        let read = try again.readValue()
        require(read == value, "written value reads back differently")
        require(again.isAtEnd, "written value leaves \(writer.bytes.count - again.offset) bytes unread")
    } catch {
        finding("written value does not read back: \(error)")
    }
    return 0
}

