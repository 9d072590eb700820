// Package textfmt formats numbers the way every report and finding message of dynamokeys prints them, so the
// key-design report (internal/keydesign), the measured-traffic report (internal/observed) and the Rego
// messages (policies/lib, kept alike by TestGoAndRegoFormatAlike) agree.
package textfmt

import (
	"math"
	"strconv"
	"strings"
)

// Thousands prints a number with comma separators and at most one decimal: 2,500 or 156.3. Numbers beyond
// int64 precision (and non-finite ones) print in scientific notation.
func Thousands(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) >= 1e15 {
		return strconv.FormatFloat(f, 'g', 3, 64)
	}
	f = math.Round(f*10) / 10
	whole := int64(f)
	s := strconv.FormatInt(whole, 10)
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	if frac := math.Abs(f - float64(whole)); frac >= 0.05 {
		b.WriteString(strconv.FormatFloat(frac, 'f', 1, 64)[1:])
	}
	return b.String()
}
