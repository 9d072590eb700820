package provider

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Numeric inputs are Number attributes, not Int64 or Float64: the framework converts a nested Int64 from
// 2.5, or a Float64 from 1e400, with an internal "always an error in the provider" message. As numbers they
// reach these validators, which say what is wrong on the attribute's path.

// wholeNumber returns v as an int64, or why it is not one.
func wholeNumber(v types.Number) (int64, error) {
	f := v.ValueBigFloat()
	if f == nil || f.IsInf() || !f.IsInt() {
		return 0, fmt.Errorf("must be a whole number, got %s", numberString(f))
	}
	n, accuracy := f.Int64()
	if accuracy != big.Exact {
		return 0, fmt.Errorf("must be a whole number that fits 64 bits, got %s", numberString(f))
	}
	return n, nil
}

// finiteNumber returns v as a float64, or why it cannot be one.
func finiteNumber(v types.Number) (float64, error) {
	f := v.ValueBigFloat()
	if f == nil {
		return 0, fmt.Errorf("must be a number")
	}
	x, _ := f.Float64()
	if math.IsInf(x, 0) {
		return 0, fmt.Errorf("must be a number within the range of a 64-bit float, got %s", numberString(f))
	}
	return x, nil
}

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
