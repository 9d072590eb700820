package report

import (
	"fmt"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// writeVectors adds the report's section on the vector indexes: for each, its shape, its HASH's values and
// members, the vector writes of its busiest HASH value against the 10 MB/s a value takes, and what its
// searches return against the 1 GB/s of search a value takes (VectorSearchBestPractices). The figures are the
// vectors stage's (derived.vector_indexes); a figure it could not compute says what it lacks.
func writeVectors(b *strings.Builder, doc *model.Document) {
	indexes := doc.Derived.VectorIndexes
	if len(indexes) == 0 {
		return
	}
	fmt.Fprintf(b, "\nVector indexes (a HASH value takes %s/s of vector writes and %s/s of search)\n",
		bytesLabel(model.VectorHashWriteBytesPerSecond), bytesLabel(model.VectorHashSearchBytesPerSecond))
	for _, v := range indexes {
		fmt.Fprintf(b, "  %s: %s, %s, %s, %s\n", v.Name, vectorShape(v), v.DistanceFunction, v.ProjectionType, hashLabel(v.PartitionKey))
		fmt.Fprintf(b, "    HASH values: %s; %s\n", hashValuesLabel(v), membersLabel(v.Entities))
		writeVectorWrites(b, v, doc.TargetUtilization)
		for _, s := range v.Searches {
			writeVectorSearch(b, s)
		}
	}
}

func vectorShape(v model.VectorIndexDoc) string {
	attribute := v.VectorAttribute
	if attribute == "" {
		attribute = "(vector attribute not known)"
	}
	if v.Dimensions == nil {
		return attribute + ", dimensions not known"
	}
	return fmt.Sprintf("%s, %s dimensions (%s a vector)", attribute, thousands(float64(*v.Dimensions)), bytesLabel(float64(v.VectorBytes)))
}

func hashLabel(k *model.IndexKeyDoc) string {
	if k == nil {
		return "no HASH (the whole index is one value)"
	}
	return fmt.Sprintf("HASH %s (%s)", k.Name, k.Type)
}

func hashValuesLabel(v model.VectorIndexDoc) string {
	switch {
	case v.HashValues != nil && v.HashValuesBasis == "no_hash":
		return "1 (no HASH)"
	case v.HashValues != nil:
		return thousands(float64(*v.HashValues)) + " (from the members' templates)"
	case v.HashValuesBasis == "unbounded":
		return "unbounded (an id or a time bucket in the template)"
	}
	return "not known (give the HASH a template in the entities' keys)"
}

// membersLabel names the kinds of item the index holds, with their HASH template, and those that carry the
// vector but no HASH, which are written and never indexed.
func membersLabel(entities []model.VectorEntityDoc) string {
	var members, never []string
	for _, e := range entities {
		name := e.Entity
		if name == "" {
			name = "the table's items"
		}
		switch {
		case e.Member && e.HashTemplate != "":
			members = append(members, fmt.Sprintf("%s (%s)", name, e.HashTemplate))
		case e.Member:
			members = append(members, name)
		default:
			never = append(never, name)
		}
	}
	if len(members) == 0 && len(never) == 0 {
		return "members not known (no entity lists the vector attribute)"
	}
	out := "members: none"
	if len(members) > 0 {
		out = "members: " + strings.Join(members, ", ")
	}
	if len(never) > 0 {
		out += "; never indexed (no HASH attribute): " + strings.Join(never, ", ")
	}
	return out
}

// writeVectorWrites is the busiest HASH value's vector writes against a value's limit, and the writes in all
// with the values they need at the target utilization.
func writeVectorWrites(b *strings.Builder, v model.VectorIndexDoc, target float64) {
	if v.HotHashWriteBytesPerSecond == nil {
		b.WriteString("    vector writes of the busiest value: not known (give the members' writes_per_second and the HASH a template)\n")
		return
	}
	hot := *v.HotHashWriteBytesPerSecond
	by := ""
	if len(v.HotHashEntities) > 0 && v.HotHashEntities[0] != "" {
		by = ", by " + strings.Join(v.HotHashEntities, " and ")
	}
	fmt.Fprintf(b, "    vector writes of the busiest value: %s/s%s (%s of a value's %s/s)\n", bytesLabel(hot), by,
		percent(hot/model.VectorHashWriteBytesPerSecond), bytesLabel(model.VectorHashWriteBytesPerSecond))
	if v.WriteBytesPerSecond != nil && v.HashValuesNeeded != nil {
		fmt.Fprintf(b, "    vector writes in all: %s/s, which need %s evenly used value(s) at %s utilisation\n",
			bytesLabel(*v.WriteBytesPerSecond), thousands(float64(*v.HashValuesNeeded)), percent(target))
	}
}

// writeVectorSearch is one search: what a call returns and, with its rate, the bytes a second it returns, a
// lower bound of the bytes it examines, which is what a value's search limit counts.
func writeVectorSearch(b *strings.Builder, s model.VectorSearchDoc) {
	topK := "top_k not known"
	if s.TopK != nil {
		topK = "top_k " + thousands(float64(*s.TopK))
	}
	if s.ResponseBytes == nil {
		fmt.Fprintf(b, "    search %s: %s\n", s.Pattern, topK)
		return
	}
	line := fmt.Sprintf("    search %s: %s, up to %s a response", s.Pattern, topK, bytesLabel(float64(*s.ResponseBytes)))
	if s.ReadsPerSecond != nil {
		returned := *s.ReadsPerSecond * float64(*s.ResponseBytes)
		line += fmt.Sprintf("; at %s/s it returns %s/s (%s of a value's %s/s; the bytes it examines, which that limit counts, are more)",
			thousands(*s.ReadsPerSecond), bytesLabel(returned), percent(returned/model.VectorHashSearchBytesPerSecond),
			bytesLabel(model.VectorHashSearchBytesPerSecond))
	}
	b.WriteString(line + "\n")
}
