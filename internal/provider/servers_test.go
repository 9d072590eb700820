package provider

import (
	"sync"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

// testServer is a local DynamoDB-API server shared by the package's acceptance tests, with what it
// implements of the optional APIs.
type testServer struct {
	kind     localddb.Kind
	endpoint string
	// tagging: TagResource and ListTagsOfResource. DynamoDB Local refuses them (UnknownOperationException).
	tagging bool
}

// sharedServer is one server of a kind for the whole package, started by the first test that asks for it;
// TestMain stops it.
type sharedServer struct {
	kind   localddb.Kind
	once   sync.Once
	server *localddb.Server
	err    error
}

var (
	dynoxide      = &sharedServer{kind: localddb.Dynoxide}
	dynamoDBLocal = &sharedServer{kind: localddb.DynamoDBLocal}
)

func (s *sharedServer) endpoint(t *testing.T) string {
	t.Helper()
	s.once.Do(func() { s.server, s.err = localddb.Start(s.kind, localddb.Options{}) })
	if s.err != nil {
		t.Fatalf("starting %s: %v", s.kind, s.err)
	}
	return s.server.Endpoint
}

// testAccDynamoDBLocal returns the endpoint of one DynamoDB Local (AWS's emulator, with the service's own
// request validation) shared by the package's acceptance tests. Its JVM takes seconds to start, so it is
// started once, by the first test that needs it.
func testAccDynamoDBLocal(t *testing.T) string {
	t.Helper()
	testAccDynoxide(t) // skips without TF_ACC
	return dynamoDBLocal.endpoint(t)
}

// forEachServer runs test once per server of the acceptance matrix, as parallel subtests named after the
// server: dynoxide (the most complete) and DynamoDB Local (AWS's request validation). The test and its
// subtests are parallel already: test uses resource.Test, not resource.ParallelTest.
func forEachServer(t *testing.T, test func(t *testing.T, server testServer)) {
	t.Helper()
	testAccDynoxide(t) // skips without TF_ACC
	t.Parallel()
	servers := []struct {
		kind    localddb.Kind
		start   func(*testing.T) string
		tagging bool
	}{
		{localddb.Dynoxide, testAccDynoxide, true},
		{localddb.DynamoDBLocal, testAccDynamoDBLocal, false},
	}
	for _, s := range servers {
		t.Run(string(s.kind), func(t *testing.T) {
			t.Parallel()
			test(t, testServer{kind: s.kind, endpoint: s.start(t), tagging: s.tagging})
		})
	}
}
