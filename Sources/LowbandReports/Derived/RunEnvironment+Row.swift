extension RunEnvironment {
    /// The environment columns of `row`: derived rows carry those of the run they were derived from.
    public init(of row: BenchmarkRow) {
        self.init(commit: row.commit, swiftVersion: row.swiftVersion, host: row.host, timestamp: row.timestamp, command: row.command)
    }
}
