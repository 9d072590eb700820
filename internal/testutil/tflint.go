package testutil

import "encoding/json"

// TFLintIssue is one issue of `tflint --format json`: the rule, its severity (error, warning, info), the
// message and where it starts.
type TFLintIssue struct {
	Rule     string
	Severity string
	Message  string
	File     string
	Line     int
}

// ParseTFLintJSON reads the output of `tflint --format json`: its issues, and the messages of the errors
// TFLint reported instead of issues (a configuration it could not load, a plugin that failed).
func ParseTFLintJSON(out []byte) (issues []TFLintIssue, errs []string, err error) {
	var report struct {
		Issues []struct {
			Rule struct {
				Name     string `json:"name"`
				Severity string `json:"severity"`
			} `json:"rule"`
			Message string `json:"message"`
			Range   struct {
				Filename string `json:"filename"`
				Start    struct {
					Line int `json:"line"`
				} `json:"start"`
			} `json:"range"`
		} `json:"issues"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		return nil, nil, err
	}
	for _, is := range report.Issues {
		issues = append(issues, TFLintIssue{Rule: is.Rule.Name, Severity: is.Rule.Severity, Message: is.Message,
			File: is.Range.Filename, Line: is.Range.Start.Line})
	}
	for _, e := range report.Errors {
		errs = append(errs, e.Message)
	}
	return issues, errs, nil
}
