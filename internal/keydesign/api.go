package keydesign

import "github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"

// From package model.
const RoutingAlgorithm = model.RoutingAlgorithm
const ShardPlaceholder = model.ShardPlaceholder

type FieldError = model.FieldError
type MissingValueError = model.MissingValueError
type Path = model.Path
type Template = model.Template
type TemplateError = model.TemplateError
type TemplatePart = model.TemplatePart

var FormatShard = model.FormatShard
var ParseTemplate = model.ParseTemplate
var Shard = model.Shard
var ShardSuffix = model.ShardSuffix
var ShardSuffixes = model.ShardSuffixes
var ShardWidth = model.ShardWidth
