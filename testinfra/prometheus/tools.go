//go:build tools

// Builds Prometheus and promtool for ds2's tests of its metrics and dashboard (not part of the
// product).
package tools

import (
	_ "github.com/prometheus/prometheus/cmd/prometheus"
	_ "github.com/prometheus/prometheus/cmd/promtool"
)
