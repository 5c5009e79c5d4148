import FuzzShaping
import FuzzSupport
import LowbandProfiles
import LowbandShaper

/// The profile parser (YAML) on any text, as `lowband proxy --profile FILE` and the control API
/// read it. Bad input must give a `ProfileError` (typed throws) naming the file; a profile that
/// parses must run in the shaper (``ShaperRun``).
///
/// `trace:` paths resolve against a directory that does not exist, so no input reads a file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput(data, size).bytes, as: UTF8.self)
    let profile: NetworkProfile
    do throws(ProfileError) {
        profile = try NetworkProfile(yaml: text, name: "fuzz", file: "fuzz.yaml", directory: "/nonexistent/lowband-fuzz")
    } catch {
        require(error.file == "fuzz.yaml" || error.file.hasPrefix("/nonexistent/"), "error names another file: \(error)")
        return 0
    }
    ShaperRun.play(profile)
    return 0
}
