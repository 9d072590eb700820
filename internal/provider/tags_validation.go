package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// DynamoDB's tag rules, checked at plan time so that a tag the service refuses never fails an apply after
// the table exists (the local servers accept any tag, so only these checks catch them). The limits come from
// the bundle's data file (keydesign/limits.go names them with their AWS pages). Each tag source is checked
// where it is written: a resource's tags and the provider's default_tags by a validator (values known at
// validate time), the merged tags_all in the resource's plan (the count, and values that were unknown until
// then).

// tagRuleSummary is the summary of every tag diagnostic.
const tagRuleSummary = "Tag refused by DynamoDB"

// tagsValidator checks a map of tags; what names it in messages ("tags", "default_tags.tags").
type tagsValidator struct{ what string }

var _ validator.Map = tagsValidator{}

func (v tagsValidator) Description(context.Context) string {
	return fmt.Sprintf("at most %d tags; keys of 1 to %d characters not starting with %q, values of at most %d characters; %s",
		model.MaxTagsPerTable, model.MaxTagKeyCharacters, model.ReservedTagPrefix, model.MaxTagValueCharacters, allowedTagCharacters())
}

func (v tagsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v tagsValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	checkTags(req.Path, v.what, req.ConfigValue, &resp.Diagnostics)
}

// validateTagsAll checks the plan's tags_all: the merged set must fit on one table, and tags whose values
// were unknown at validate time are checked now.
func validateTagsAll(tagsAll types.Map, diags *diag.Diagnostics) {
	if tagsAll.IsNull() || tagsAll.IsUnknown() {
		return
	}
	checkTags(path.Root("tags_all"), "tags_all (the provider's default_tags merged with tags)", tagsAll, diags)
}

// checkTags reports every rule a map of tags breaks, each tag on its own path.
func checkTags(at path.Path, what string, tags types.Map, diags *diag.Diagnostics) {
	elems := tags.Elements()
	if n := int64(len(elems)); n > model.MaxTagsPerTable {
		diags.AddAttributeError(at, tagRuleSummary, fmt.Sprintf("%s has %d tags; DynamoDB allows at most %d tags per table. Remove %d of them.",
			what, n, model.MaxTagsPerTable, n-model.MaxTagsPerTable))
	}
	for _, key := range slices.Sorted(maps.Keys(elems)) {
		value, known := "", true
		if s, ok := elems[key].(types.String); ok {
			value, known = s.ValueString(), !s.IsUnknown()
		}
		for _, problem := range tagProblems(key, value, known) {
			diags.AddAttributeError(at.AtMapKey(key), tagRuleSummary, fmt.Sprintf("%s[%q]: %s", what, key, problem))
		}
	}
}

// tagProblems lists the rules one tag breaks, as sentences. The value is checked only when known.
func tagProblems(key, value string, valueKnown bool) []string {
	var problems []string
	switch n := int64(utf8.RuneCountInString(key)); {
	case n == 0:
		problems = append(problems, fmt.Sprintf("a tag key must have 1 to %d characters; this one is empty.", model.MaxTagKeyCharacters))
	case n > model.MaxTagKeyCharacters:
		problems = append(problems, fmt.Sprintf("the key has %d characters; DynamoDB allows at most %d.", n, model.MaxTagKeyCharacters))
	}
	if prefix := model.ReservedTagPrefix; len(key) >= len(prefix) && strings.EqualFold(key[:len(prefix)], prefix) {
		problems = append(problems, fmt.Sprintf("keys starting with %q (in any case) are reserved for the tags AWS assigns; choose another key.", prefix))
	}
	if bad := disallowedTagCharacters(key); bad != "" {
		problems = append(problems, fmt.Sprintf("the key contains %s; %s.", bad, allowedTagCharacters()))
	}
	if !valueKnown {
		return problems
	}
	if n := int64(utf8.RuneCountInString(value)); n > model.MaxTagValueCharacters {
		problems = append(problems, fmt.Sprintf("the value has %d characters; DynamoDB allows at most %d.", n, model.MaxTagValueCharacters))
	}
	if bad := disallowedTagCharacters(value); bad != "" {
		problems = append(problems, fmt.Sprintf("the value contains %s; %s.", bad, allowedTagCharacters()))
	}
	return problems
}

// disallowedTagCharacters quotes the distinct characters of s outside DynamoDB's tag alphabet: letters,
// numbers and white space of any script (Unicode categories L, N and Z, as AWS's tag pattern has them) and
// the special characters of the data file. "" when there are none.
func disallowedTagCharacters(s string) string {
	var bad []string
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Z, r) || strings.ContainsRune(model.TagSpecialCharacters, r) {
			continue
		}
		if q := fmt.Sprintf("%q", r); !slices.Contains(bad, q) {
			bad = append(bad, q)
		}
	}
	return strings.Join(bad, ", ")
}

func allowedTagCharacters() string {
	special := make([]string, 0, len(model.TagSpecialCharacters))
	for _, r := range model.TagSpecialCharacters {
		special = append(special, string(r))
	}
	return "DynamoDB allows letters, numbers, spaces and " + strings.Join(special, " ")
}
