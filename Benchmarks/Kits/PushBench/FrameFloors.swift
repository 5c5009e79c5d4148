import LowbandShaper
import Synchronization

/// The floor of each frame size seen on one profile, computed once per size: the median of a
/// correlated Pareto jitter is a numeric convolution, not worth repeating for every sample.
final class FrameFloors: Sendable {
    let profile: NetworkProfile
    /// By frame size; looked up, never iterated.
    private let floors = Mutex<[Int: PhysicalFloor]>([:])

    init(profile: NetworkProfile) {
        self.profile = profile
    }

    func floor(frameBytes: Int) -> PhysicalFloor {
        if let known = floors.withLock({ $0[frameBytes] }) { return known }
        let floor = PhysicalFloor(profile: profile, frameBytes: frameBytes)
        floors.withLock { $0[frameBytes] = floor }
        return floor
    }
}
