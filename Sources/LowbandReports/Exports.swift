// The run report — `RunRecord`, its metrics and the self-contained HTML page (`RunReportHTML`) —
// is part of the reports library: `import LowbandReports` reads, compares and renders everything
// Lowband writes.
@_exported public import LowbandRunReport
