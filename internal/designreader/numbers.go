package designreader

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// Numeric inputs are numbers of any size in the configuration (Terraform's number type); the design reads
// them as int64 and float64. These say why a number does not fit, for the reader and for the provider's
// validators alike.

// WholeNumber returns f as an int64, or why it is not one.
func WholeNumber(f *big.Float) (int64, error) {
	if f == nil || f.IsInf() || !f.IsInt() {
		return 0, fmt.Errorf("must be a whole number, got %s", numberString(f))
	}
	n, accuracy := f.Int64()
	if accuracy != big.Exact {
		return 0, fmt.Errorf("must be a whole number that fits 64 bits, got %s", numberString(f))
	}
	return n, nil
}

// FiniteNumber returns f as a float64, or why it cannot be one.
func FiniteNumber(f *big.Float) (float64, error) {
	if f == nil {
		return 0, errors.New("must be a number")
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
