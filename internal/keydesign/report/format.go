package report

// FormatNumber prints a number the way reports and messages do: thousands separated by commas, one decimal.
func FormatNumber(f float64) string { return thousands(f) }
