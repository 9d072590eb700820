package provider

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/designreader"
)

// Numeric inputs are Number attributes, not Int64 or Float64: the framework converts a nested Int64 from
// 2.5, or a Float64 from 1e400, with an internal "always an error in the provider" message. As numbers they
// reach these validators, which say what is wrong on the attribute's path.

// wholeNumber and finiteNumber say what is wrong with a number in the design reader's words, so that the
// validator's message and the reader's are one.
func wholeNumber(v types.Number) (int64, error) { return designreader.WholeNumber(v.ValueBigFloat()) }

func finiteNumber(v types.Number) (float64, error) {
	return designreader.FiniteNumber(v.ValueBigFloat())
}

// numberString prints a number argument in a function's message.
func numberString(f *big.Float) string {
	if f == nil {
		return "null"
	}
	return f.Text('g', 10)
}

type numberValidator struct {
	whole bool
}

// wholeNumberValidator accepts whole numbers that fit an int64; range checks belong to the design analysis.
func wholeNumberValidator() validator.Number { return numberValidator{whole: true} }

// finiteNumberValidator accepts numbers a float64 holds.
func finiteNumberValidator() validator.Number { return numberValidator{} }

func (v numberValidator) Description(context.Context) string {
	if v.whole {
		return "must be a whole number"
	}
	return "must be a finite number"
}

func (v numberValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v numberValidator) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var err error
	if v.whole {
		_, err = wholeNumber(req.ConfigValue)
	} else {
		_, err = finiteNumber(req.ConfigValue)
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid number", fmt.Sprintf("%s %s.", req.Path, err))
	}
}
