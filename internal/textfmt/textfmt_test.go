package textfmt

import (
	"math"
	"testing"
)

func TestThousands(t *testing.T) {
	for in, want := range map[float64]string{
		0: "0", 999: "999", 1000: "1,000", 2500: "2,500", 156.34: "156.3", 1234567.89: "1,234,567.9",
		-82.12: "-82.1", -1234.5: "-1,234.5", 0.04: "0", 1e16: "1e+16", math.Inf(1): "+Inf",
	} {
		if got := Thousands(in); got != want {
			t.Errorf("Thousands(%v) = %q, want %q", in, got, want)
		}
	}
}
