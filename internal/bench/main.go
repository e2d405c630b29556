// Command bench measures queuecheck against the floor of any analysis driver
// (load, parse and type-check: see ./floor), go vet, and staticcheck, on the
// same targets, interleaving the tools round by round so that machine noise
// spreads over all of them. It prints a Markdown table of median wall time,
// CPU time and peak RSS, with ratios to the floor, and the per-check cost of
// queuecheck (its -timing output: checker.Action.Duration summed per check).
//
//	go run ./internal/bench                       # std and golang.org/x/tools/go/..., 3 rounds
//	go run ./internal/bench -rounds 5 -targets std
//
// It is run on demand, never by go test: see docs/performance.md.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

var (
	rounds  = flag.Int("rounds", 3, "measurements per tool and target (the median is reported)")
	targets = flag.String("targets", "std,golang.org/x/tools/go/...", "comma-separated package patterns to analyze")
	vetMode = flag.Bool("vet", true, "also measure queuecheck and the floor as go vet -vettool on std")
	skipSC  = flag.Bool("nostaticcheck", false, "do not build and run staticcheck")
	skipVet = flag.Bool("nogovet", false, "do not measure go vet's default analyzers (a comparison, not a bar; the slowest tool of a round)")
)

// A tool is one command line to measure; {} stands for the target pattern.
type tool struct {
	name string
	args []string
	// bustVetCache names an analyzer flag that is given a value never used
	// before on every run: go vet keys its result cache on analyzer flags
	// (not on -c), so the result cannot come from the cache.
	bustVetCache string
}

type sample struct {
	wall, cpu time.Duration
	rssKB     int64
	exit      int
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	root := repoRoot()
	bin := filepath.Join(os.TempDir(), "queuecheck-bench")
	must(os.MkdirAll(bin, 0o755))
	build(root, filepath.Join(bin, "queuecheck"), "./cmd/queuecheck")
	build(root, filepath.Join(bin, "floor"), "./internal/bench/floor")
	if !*skipSC {
		install := exec.Command("go", "install", "honnef.co/go/tools/cmd/staticcheck@v0.8.2")
		install.Env = append(os.Environ(), "GOBIN="+bin)
		install.Stderr = os.Stderr
		must(install.Run())
	}

	work := workModule(root) // a module that requires golang.org/x/tools, so its patterns resolve
	qc, floor := filepath.Join(bin, "queuecheck"), filepath.Join(bin, "floor")
	for _, target := range strings.Split(*targets, ",") {
		tools := []tool{
			{name: "floor (no tests)", args: []string{floor, "-test=false", "{}"}},
			{name: "queuecheck", args: []string{qc, "{}"}},
		}
		if !*skipVet {
			tools = append(tools, tool{name: "go vet (default analyzers, uncached)", args: []string{"go", "vet", "{}"}, bustVetCache: "-printf.funcs=bench%d"})
		}
		if !*skipSC {
			tools = append(tools, tool{name: "staticcheck (empty cache)", args: []string{filepath.Join(bin, "staticcheck"), "{}"}})
		}
		if *vetMode && target == "std" {
			tools = append(tools,
				tool{name: "go vet -vettool=floor (uncached)", args: []string{"go", "vet", "-vettool=" + floor, "{}"}, bustVetCache: "-trivial.nonce=%d"},
				tool{name: "go vet -vettool=queuecheck (uncached)", args: []string{"go", "vet", "-vettool=" + qc, "{}"}, bustVetCache: "-chansize.max=%d"},
			)
		}
		measure(work, target, tools, qc)
	}
}

func measure(dir, target string, tools []tool, qc string) {
	samples := make(map[string][]sample)
	for r := range *rounds {
		for _, t := range tools {
			s := runOnce(dir, target, t)
			samples[t.name] = append(samples[t.name], s)
			log.Printf("%s round %d %s: %v wall, %v cpu, %d MiB, exit %d", target, r+1, t.name, s.wall.Round(time.Millisecond), s.cpu.Round(time.Millisecond), s.rssKB/1024, s.exit)
		}
	}
	fmt.Printf("\n### %s (%d rounds, median)\n\n", target, *rounds)
	fmt.Println("| tool | wall | CPU | peak RSS | wall ÷ floor | RSS ÷ floor |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: |")
	fl := median(samples[tools[0].name])
	for _, t := range tools {
		m := median(samples[t.name])
		fmt.Printf("| %s | %.2f s | %.2f s | %d MiB | %.2f× | %.2f× |\n", t.name, m.wall.Seconds(), m.cpu.Seconds(), m.rssKB/1024,
			m.wall.Seconds()/fl.wall.Seconds(), float64(m.rssKB)/float64(fl.rssKB))
	}
	fmt.Printf("\nqueuecheck per-check cost on %s (-timing, summed over packages, one run):\n\n```\n%s```\n", target, timing(dir, qc, target))
}

func runOnce(dir, target string, t tool) sample {
	var args []string
	for _, a := range t.args {
		args = append(args, strings.ReplaceAll(a, "{}", target))
	}
	if t.bustVetCache != "" {
		// A large count keeps -chansize.max from changing what is reported.
		args = slices.Insert(args, 2, fmt.Sprintf(t.bustVetCache, 1<<40+time.Now().UnixNano()%(1<<30)))
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if strings.Contains(t.name, "staticcheck") {
		cache, err := os.MkdirTemp("", "staticcheck-cache")
		must(err)
		defer os.RemoveAll(cache)
		cmd.Env = append(cmd.Env, "STATICCHECK_CACHE="+cache)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	s := sample{wall: wall}
	if ee, ok := err.(*exec.ExitError); ok {
		s.exit = ee.ExitCode()
	} else if err != nil {
		log.Fatalf("%v: %v", args, err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// For go vet this is the largest of the go command and its children
		// that were waited for: the analysis processes.
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.rssKB = ru.Maxrss
	}
	if s.exit > 1 && !strings.Contains(t.name, "vet") && !strings.Contains(t.name, "staticcheck") {
		log.Printf("%v exited %d:\n%s", args, s.exit, lastLines(stderr.String(), 10))
	}
	return s
}

func timing(dir, qc, target string) string {
	cmd := exec.Command(qc, "-timing", target)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run()
	var out strings.Builder
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		if strings.HasSuffix(sc.Text(), "%") {
			out.WriteString(sc.Text() + "\n")
		}
	}
	return out.String()
}

func median(s []sample) sample {
	byWall := slices.Clone(s)
	slices.SortFunc(byWall, func(a, b sample) int { return int(a.wall - b.wall) })
	m := byWall[len(byWall)/2]
	cpus := make([]time.Duration, len(s))
	rss := make([]int64, len(s))
	for i, x := range s {
		cpus[i], rss[i] = x.cpu, x.rssKB
	}
	slices.Sort(cpus)
	slices.Sort(rss)
	m.cpu, m.rssKB = cpus[len(cpus)/2], rss[len(rss)/2]
	return m
}

func build(root, out, pkg string) {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	must(cmd.Run())
}

// workModule returns a directory whose module requires golang.org/x/tools at
// the version queuecheck uses, so "golang.org/x/tools/go/..." resolves from the
// module cache: queuecheck's own module.
func workModule(root string) string { return root }

func repoRoot() string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	must(err)
	return strings.TrimSpace(string(out))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
