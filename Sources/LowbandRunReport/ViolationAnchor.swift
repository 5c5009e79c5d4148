/// The ids that tie a broken promise's entry in the report to its mark on the timeline: the
/// entry links to the mark and the mark back to the entry. `number` counts a profile's
/// violations from 1 in the record's (time) order.
enum ViolationAnchor {
    static func entryID(slug: String, number: Int) -> String { "violation-\(slug)-\(number)" }
    static func markID(slug: String, number: Int) -> String { "mark-violation-\(slug)-\(number)" }
    static func sectionID(slug: String) -> String { "invariants-\(slug)" }
}
