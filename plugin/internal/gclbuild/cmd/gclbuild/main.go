// Command gclbuild prints the path of a golangci-lint v2 with queuecheck's
// checks compiled in, building it from the Go module proxy first unless the
// cache already holds one for the checkout's current source. Run it from the
// checkout:
//
//	gcl=$(go run ./plugin/internal/gclbuild/cmd/gclbuild)
//	"$gcl" run ./...
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/queuecheck/queuecheck/plugin/internal/gclbuild"
)

func main() {
	log.SetFlags(0)
	root := "."
	if len(os.Args) > 2 {
		log.Fatal("usage: gclbuild [checkout]")
	} else if len(os.Args) == 2 {
		root = os.Args[1]
	}
	bin, err := gclbuild.Binary(root, log.Printf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bin)
}
