# Shortcuts for the scripts; each installs what it needs first (scripts/setup.sh).
.PHONY: run test bench bench-startup gate

run:
	scripts/run.sh

test:
	scripts/test.sh

# Every benchmark suite -> reports/bench.csv (takes several minutes; see Benchmarks/README.md).
bench:
	scripts/bench.sh

# The start-up suite alone -> reports/startup.csv, as CI runs it.
bench-startup:
	scripts/bench.sh --suite startup --out reports/startup.csv

# The regression gate CI applies: start-up suite against the committed baseline.
gate: bench-startup
	"$$(swift build --show-bin-path)/lowband" compare reports/baselines/startup.csv reports/startup.csv --threshold 10% --ratio-threshold 50%
