// Command with-dynamodb runs a command next to a local DynamoDB-API server: it starts the server on a
// free 127.0.0.1 port, runs the command with DYNAMODB_ENDPOINT (and AWS_ENDPOINT_URL_DYNAMODB) set, and
// stops the server by PID when the command ends or is interrupted. The demo uses it.
//
//	go run ./internal/cmd/with-dynamodb [-server dynoxide|dynalite|dynamodb-local] [-create-table-ms N ...] -- command args...
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

func main() {
	kind := flag.String("server", string(localddb.Dynoxide), "server to start: dynoxide, dynalite or dynamodb-local")
	var opts localddb.Options
	flag.IntVar(&opts.CreateTableMs, "create-table-ms", 0, "dynalite: how long tables stay CREATING")
	flag.IntVar(&opts.UpdateTableMs, "update-table-ms", 0, "dynalite: how long tables stay UPDATING")
	flag.IntVar(&opts.DeleteTableMs, "delete-table-ms", 0, "dynalite: how long tables stay DELETING")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: with-dynamodb [-server dynoxide|dynalite|dynamodb-local] -- command args...")
		os.Exit(2)
	}
	os.Exit(run(localddb.Kind(*kind), opts, flag.Args()))
}

func run(kind localddb.Kind, opts localddb.Options, argv []string) int {
	server, err := localddb.Start(kind, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "with-dynamodb:", err)
		return 1
	}
	defer func() { _ = server.Stop() }()
	fmt.Fprintf(os.Stderr, "with-dynamodb: %s listening on %s (pid %d)\n", kind, server.Endpoint, server.PID)

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "DYNAMODB_ENDPOINT="+server.Endpoint, "AWS_ENDPOINT_URL_DYNAMODB="+server.Endpoint)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "with-dynamodb:", err)
		return 1
	}
	// Pass interrupts on to the command and keep waiting, so the server is stopped after it ends.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		for sig := range signals {
			_ = cmd.Process.Signal(sig)
		}
	}()
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "with-dynamodb:", err)
		return 1
	}
	return 0
}
