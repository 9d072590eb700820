package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Provider default tags and the resource's tags_all, with the AWS provider's semantics:
//
//   - plan: tags_all = default_tags.tags merged with the resource's tags, the resource winning on a shared
//     key; unknown when either holds an unknown value;
//   - apply: the table is tagged with tags_all;
//   - read: tags_all is what the table carries, so a tag added, changed or removed out of band is a diff of
//     tags_all that the next apply reverts; tags keeps its configured value. An import (or a state without
//     tags_all) has no configured value: tags is then the table's tags minus those equal to a default tag.

// defaultTagsModel is the provider's default_tags attribute.
type defaultTagsModel struct {
	Tags types.Map `tfsdk:"tags"`
}

// defaultTags are the provider's default tags as the resources use them. unknown is true when the provider
// block holds a value that is not known yet; tags_all is then unknown in every plan.
type defaultTags struct {
	tags    map[string]string
	unknown bool
}

func defaultTagsAttribute() schema.Attribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		Description: "Tags applied to every table the provider manages, as with the AWS provider's default_tags. A " +
			"table's own tags win on a shared key; the merged set is the table's tags_all.",
		Attributes: map[string]schema.Attribute{
			"tags": schema.MapAttribute{
				Optional:    true,
				ElementType: types.StringType,
				Description: "Tags to put on every dynamokeys_sharded_table, e.g. { environment = \"prod\", owner = \"platform\" }.",
				Validators:  []validator.Map{tagsValidator{what: "default_tags.tags"}},
			},
		},
	}
}

func tagsAllAttribute() rschema.Attribute {
	return rschema.MapAttribute{
		Computed:    true,
		ElementType: types.StringType,
		Description: "All tags of the table: the provider's default_tags merged with tags (tags win on a shared key). A tag " +
			"added or changed outside Terraform shows here as a change that the next apply reverts.",
	}
}

// expandDefaultTags reads the provider's default_tags.
func expandDefaultTags(ctx context.Context, m *defaultTagsModel) (defaultTags, diag.Diagnostics) {
	var diags diag.Diagnostics
	if m == nil || m.Tags.IsNull() {
		return defaultTags{}, diags
	}
	tags, known, d := knownStringMap(ctx, m.Tags)
	diags.Append(d...)
	return defaultTags{tags: tags, unknown: !known}, diags
}

// knownStringMap reads a map of strings; known is false when the map or one of its values is unknown.
func knownStringMap(ctx context.Context, m types.Map) (map[string]string, bool, diag.Diagnostics) {
	if m.IsUnknown() {
		return nil, false, nil
	}
	if m.IsNull() {
		return nil, true, nil
	}
	for _, v := range m.Elements() {
		if v.IsUnknown() {
			return nil, false, nil
		}
	}
	out := map[string]string{}
	diags := m.ElementsAs(ctx, &out, false)
	return out, true, diags
}

// mergeTags is defaults overridden by the resource's tags.
func mergeTags(defaults, own map[string]string) map[string]string {
	out := make(map[string]string, len(defaults)+len(own))
	maps.Copy(out, defaults)
	maps.Copy(out, own)
	return out
}

// withoutDefaults is tags without the tags equal (key and value) to a default tag: what an imported table's
// configuration has to say itself. A tag that overrides a default with another value stays.
func withoutDefaults(tags, defaults map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range tags {
		if d, ok := defaults[k]; !ok || d != v {
			out[k] = v
		}
	}
	return out
}

// planTagsAll is the tags_all of a plan whose resource tags are own.
func planTagsAll(ctx context.Context, defaults defaultTags, own types.Map) (types.Map, diag.Diagnostics) {
	tags, known, diags := knownStringMap(ctx, own)
	if !known || defaults.unknown {
		return types.MapUnknown(types.StringType), diags
	}
	return stringMap(mergeTags(defaults.tags, tags)), diags
}

// readTags sets tags_all from the tags the table carries and, for a state without tags_all (an import, or a
// state written before tags_all existed), tags from them minus the default tags. reported is nil when the
// endpoint does not report tags: then both stay as they were.
func readTags(reported map[string]string, defaults defaultTags, m *shardedTableModel) {
	if reported == nil {
		return
	}
	if m.TagsAll.IsNull() || m.TagsAll.IsUnknown() {
		own := reported
		if !defaults.unknown {
			own = withoutDefaults(reported, defaults.tags)
		}
		switch {
		case len(own) > 0:
			m.Tags = stringMap(own)
		case m.Tags.IsNull() || m.Tags.IsUnknown() || len(m.Tags.Elements()) > 0:
			m.Tags = types.MapNull(types.StringType)
		}
	}
	m.TagsAll = stringMap(reported)
}

// stringMap is a known map value of tags.
func stringMap(tags map[string]string) types.Map {
	elems := make(map[string]attr.Value, len(tags))
	for k, v := range tags {
		elems[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, elems)
}

// tagsToApply is the tag set expandTable sends: tags_all, or tags while tags_all is not known (a model
// that did not go through ModifyPlan).
func tagsToApply(m shardedTableModel) types.Map {
	if m.TagsAll.IsNull() || m.TagsAll.IsUnknown() {
		return m.Tags
	}
	return m.TagsAll
}

// defaultTagsOf returns the provider's default tags, or none when the provider is not configured.
func defaultTagsOf(data *providerData) defaultTags {
	if data == nil {
		return defaultTags{}
	}
	return data.defaultTags
}
