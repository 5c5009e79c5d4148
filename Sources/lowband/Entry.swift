import LowbandCLI

@main
extension Lowband {}
