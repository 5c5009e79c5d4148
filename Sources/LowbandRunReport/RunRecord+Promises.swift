extension RunRecord {
    /// Broken promises counted by the checks, or listed when a record has no counts.
    var brokenPromises: Int {
        var counted = 0
        for check in invariants where check.violations > 0 {
            let (sum, overflow) = counted.addingReportingOverflow(check.violations)
            counted = overflow ? Int.max : sum
        }
        return Swift.max(counted, violations.count)
    }
}
