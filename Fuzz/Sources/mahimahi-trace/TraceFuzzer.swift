import FuzzSupport
import FuzzShaping
import LowbandShaper

/// The Mahimahi trace parser on any text. Bad input must give a `ProfileError` with code
/// `invalidTrace`; a trace that parses must drive the shaper as the downlink's rate
/// (``ShaperRun``) and have a finite, positive average rate.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput(data, size).bytes, as: UTF8.self)
    let trace: MahimahiTrace
    do throws(ProfileError) {
        trace = try MahimahiTrace(text: text, file: "fuzz.trace")
    } catch {
        require(error.code == .invalidTrace, "a bad trace gave \(error.code): \(error)")
        return 0
    }
    let average = trace.averageBitsPerSecond
    require(average.isFinite && average > 0, "average rate \(average)")
    let profile = NetworkProfile(
        name: "fuzz-trace",
        downlink: LinkProfile(rate: .trace(trace), delay: .milliseconds(50)),
        uplink: LinkProfile(rate: .trace(trace), delay: .milliseconds(50))
    )
    ShaperRun.play(profile)
    return 0
}
