// Package awsstub is a stand-in on 127.0.0.1 for the AWS calls of the live measured-traffic path: DynamoDB's
// DescribeContributorInsights and DescribeTable (AWS JSON 1.0) and CloudWatch's GetMetricData and GetInsightRuleReport in
// Smithy RPC v2 CBOR, the protocol aws-sdk-go-v2/service/cloudwatch speaks since v1.5x. It answers from
// workloads generated in DynamoDB's own units (workload.go), refuses what AWS refuses (limits.go, each limit
// with the page it comes from), pages GetMetricData, and records every request so that tests can also
// assert what was asked.
package awsstub

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/smithy-go/encoding/cbor"
)

// Insights is what DescribeContributorInsights answers for a table or index.
type Insights struct {
	Status string // ENABLED, ENABLING, DISABLING, DISABLED, FAILED
	Mode   string // ACCESSED_AND_THROTTLED_KEYS or THROTTLED_KEYS
	// Failure is the FailureException of a FAILED status: name and description.
	Failure [2]string
	Rules   []string
}

// TableSize is what DescribeTable reports of a table's items.
type TableSize struct {
	ItemCount      int64
	TableSizeBytes int64
}

// Request is one recorded call: the operation and its decoded input (CBOR and JSON alike become JSON-like
// Go values; CBOR timestamps become time.Time).
type Request struct {
	Operation string
	Input     map[string]any
}

// Server answers the three operations. Set the fields before the first call.
type Server struct {
	URL string
	// Now is the stand-in's clock: one-minute datapoints older than 15 days are gone, as in CloudWatch.
	Now func() time.Time
	// Insights by "table" or "table/index"; a missing entry answers ResourceNotFoundException.
	Insights map[string]Insights
	// Workloads by "table" or "table/index": the traffic the metrics and the Contributor Insights rules of
	// Insights report.
	Workloads map[string]*Workload
	// Tables by name: the item count and size DescribeTable reports (ItemCount and TableSizeBytes, which AWS
	// updates about every six hours). A table not listed answers UnknownOperationException, as before the
	// stand-in answered DescribeTable: it claims nothing about a table it was not told of.
	Tables map[string]TableSize
	// Denied operations answer AccessDenied, as for credentials without the IAM action.
	Denied map[string]bool
	// PageSize, when set, is the most datapoints a GetMetricData page holds (all queries together), below
	// the request's MaxDatapoints: small pages for tests of paging.
	PageSize int

	srv      *httptest.Server
	mu       sync.Mutex
	requests []Request
	refused  []string
}

// Start listens on a free port of 127.0.0.1; Close stops it.
func Start() *Server {
	s := &Server{Now: time.Now, Insights: map[string]Insights{}, Workloads: map[string]*Workload{}, Tables: map[string]TableSize{}, Denied: map[string]bool{}}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("awsstub: %v", err))
	}
	s.srv.Listener = l
	s.srv.Start()
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the calls made so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Refused returns why each refused call was refused, in order: a test of a reader that must stay within
// AWS's limits asserts it is empty.
func (s *Server) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.refused)
}

func (s *Server) record(op string, in map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Operation: op, Input: in})
}

func (s *Server) refuse(op string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refused = append(s.refused, op+": "+err.Error())
}

const cborPrefix = "/service/GraniteServiceVersion20100801/operation/"

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if op, ok := strings.CutPrefix(r.URL.Path, cborPrefix); ok {
		s.serveCBOR(w, r, op, body)
		return
	}
	switch r.Header.Get("X-Amz-Target") {
	case "DynamoDB_20120810.DescribeContributorInsights":
		s.serveInsights(w, body)
		return
	case "DynamoDB_20120810.DescribeTable":
		if s.serveDescribeTable(w, body) {
			return
		}
	}
	writeJSONError(w, "UnknownOperationException", "the stand-in does not implement "+r.Header.Get("X-Amz-Target"))
}

func writeJSONError(w http.ResponseWriter, code, msg string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + code, "message": msg})
}

// writeJSON answers in AWS JSON 1.0 with the CRC32 of the body, which the DynamoDB client checks.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(b)), 10))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// serveDescribeTable answers DescribeTable for a table of Tables with its name, status and item figures; it
// returns false, answering nothing, for a table it was not told of.
func (s *Server) serveDescribeTable(w http.ResponseWriter, body []byte) bool {
	var in map[string]any
	if err := json.Unmarshal(body, &in); err != nil {
		writeJSONError(w, "ValidationException", err.Error())
		return true
	}
	name, _ := in["TableName"].(string)
	size, ok := s.Tables[name]
	if !ok && !s.Denied["DescribeTable"] {
		return false
	}
	s.record("DescribeTable", in)
	if s.Denied["DescribeTable"] {
		writeJSONError(w, "AccessDeniedException", "User is not authorized to perform: dynamodb:DescribeTable")
		return true
	}
	writeJSON(w, http.StatusOK, map[string]any{"Table": map[string]any{
		"TableName": name, "TableStatus": "ACTIVE", "ItemCount": size.ItemCount, "TableSizeBytes": size.TableSizeBytes,
	}})
	return true
}

func (s *Server) serveInsights(w http.ResponseWriter, body []byte) {
	var in map[string]any
	if err := json.Unmarshal(body, &in); err != nil {
		writeJSONError(w, "ValidationException", err.Error())
		return
	}
	s.record("DescribeContributorInsights", in)
	if s.Denied["DescribeContributorInsights"] {
		writeJSONError(w, "AccessDeniedException", "User is not authorized to perform: dynamodb:DescribeContributorInsights")
		return
	}
	key, _ := in["TableName"].(string)
	if idx, ok := in["IndexName"].(string); ok {
		key += "/" + idx
	}
	ins, ok := s.Insights[key]
	if !ok {
		writeJSONError(w, "ResourceNotFoundException", "Requested resource not found: "+key)
		return
	}
	out := map[string]any{"TableName": in["TableName"], "ContributorInsightsStatus": ins.Status, "ContributorInsightsRuleList": ins.Rules}
	if ins.Mode != "" {
		out["ContributorInsightsMode"] = ins.Mode
	}
	if ins.Failure[0] != "" {
		out["FailureException"] = map[string]string{"ExceptionName": ins.Failure[0], "ExceptionDescription": ins.Failure[1]}
	}
	if in["IndexName"] != nil {
		out["IndexName"] = in["IndexName"]
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) serveCBOR(w http.ResponseWriter, r *http.Request, op string, body []byte) {
	if r.Header.Get("Smithy-Protocol") != "rpc-v2-cbor" || r.Header.Get("Content-Type") != "application/cbor" {
		writeCBORError(w, "InvalidParameterInput", "not an RPC v2 CBOR request")
		return
	}
	v, err := cbor.Decode(body)
	if err != nil {
		writeCBORError(w, "InvalidParameterInput", err.Error())
		return
	}
	in, _ := fromCBOR(v).(map[string]any)
	s.record(op, in)
	if s.Denied[op] {
		writeCBORError(w, "AccessDenied", "User is not authorized to perform: cloudwatch:"+op)
		return
	}
	var out any
	switch op {
	case "GetMetricData":
		out, err = s.getMetricData(in)
	case "GetInsightRuleReport":
		out, err = s.getInsightRuleReport(in)
	default:
		err = fmt.Errorf("the stand-in does not implement %s", op)
	}
	if err != nil {
		s.refuse(op, err)
		writeCBORError(w, "InvalidParameterInput", err.Error())
		return
	}
	w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
	w.Header().Set("Content-Type", "application/cbor")
	_, _ = w.Write(cbor.Encode(toCBOR(out, "")))
}

func writeCBORError(w http.ResponseWriter, code, msg string) {
	w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
	w.Header().Set("Content-Type", "application/cbor")
	status := http.StatusBadRequest
	if code == "AccessDenied" {
		status = http.StatusForbidden
	}
	w.WriteHeader(status)
	_, _ = w.Write(cbor.Encode(cbor.Map{"__type": cbor.String("com.amazonaws.cloudwatch#" + code), "message": cbor.String(msg)}))
}

func dimensionsKey(v any) string {
	var table, index string
	dims, _ := v.([]any)
	for _, d := range dims {
		dm, _ := d.(map[string]any)
		switch dm["Name"] {
		case "TableName":
			table, _ = dm["Value"].(string)
		case "GlobalSecondaryIndexName":
			index, _ = dm["Value"].(string)
		}
	}
	if index != "" {
		return table + "/" + index
	}
	return table
}

// fromCBOR turns a decoded CBOR value into JSON-like Go values; a tag-1 timestamp becomes a time.Time.
func fromCBOR(v cbor.Value) any {
	switch v := v.(type) {
	case cbor.Map:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = fromCBOR(e)
		}
		return out
	case cbor.List:
		out := make([]any, 0, len(v))
		for _, e := range v {
			out = append(out, fromCBOR(e))
		}
		return out
	case cbor.String:
		return string(v)
	case cbor.Uint:
		return float64(v)
	case cbor.NegInt:
		return -float64(v)
	case cbor.Float32:
		return float64(v)
	case cbor.Float64:
		return float64(v)
	case cbor.Bool:
		return bool(v)
	case *cbor.Tag:
		if t, err := cbor.AsTime(v); err == nil {
			return t
		}
	}
	return nil
}

// integerFields are the members of the answers modelled as integers (the rest are doubles).
var integerFields = map[string]bool{"ApproximateUniqueCount": true}

// timestampFields hold ISO 8601 strings in the CLI's JSON and epoch-second tags in CBOR.
var timestampFields = map[string]bool{"Timestamp": true, "Timestamps": true}

// toCBOR encodes a JSON-like value for an answer; field names the member it belongs to.
func toCBOR(v any, field string) cbor.Value {
	switch v := v.(type) {
	case map[string]any:
		out := cbor.Map{}
		for k, e := range v {
			if e != nil {
				out[k] = toCBOR(e, k)
			}
		}
		return out
	case []any:
		out := cbor.List{}
		for _, e := range v {
			out = append(out, toCBOR(e, field))
		}
		return out
	case time.Time:
		return &cbor.Tag{ID: 1, Value: cbor.Float64(float64(v.UnixNano()) / 1e9)}
	case string:
		if timestampFields[field] {
			if t, err := time.Parse(time.RFC3339, v); err == nil {
				return &cbor.Tag{ID: 1, Value: cbor.Float64(float64(t.UnixNano()) / 1e9)}
			}
		}
		return cbor.String(v)
	case float64:
		if integerFields[field] && v == math.Trunc(v) && v >= 0 {
			return cbor.Uint(uint64(v))
		}
		return cbor.Float64(v)
	case bool:
		return cbor.Bool(v)
	}
	return &cbor.Nil{}
}
