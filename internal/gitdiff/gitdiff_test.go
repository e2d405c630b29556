package gitdiff

import (
	"path/filepath"
	"testing"
)

func TestParse(t *testing.T) {
	root := t.TempDir()
	diff := `diff --git a/a.go b/a.go
index 1111111..2222222 100644
--- a/a.go
+++ b/a.go
@@ -3,0 +4,2 @@ func f() {
+	x := 1
+	y := 2
@@ -10 +12 @@ func g() {
-	old
+	new
@@ -20,3 +22,0 @@ func h() {
-	gone
-	gone
-	gone
diff --git a/old.go b/old.go
deleted file mode 100644
--- a/old.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package p
-
diff --git "a/sp ace.go" "b/sp ace.go"
--- "a/sp ace.go"
+++ "b/sp ace.go"
@@ -1 +1 @@
-package p
+package q
`
	l := Parse([]byte(diff), root)
	a := filepath.Join(root, "a.go")
	for line, want := range map[int]bool{3: false, 4: true, 5: true, 6: false, 11: false, 12: true, 13: false, 22: false} {
		if got := l.Has(a, line); got != want {
			t.Errorf("a.go:%d changed = %v, want %v", line, got, want)
		}
	}
	if l.Has(filepath.Join(root, "old.go"), 1) {
		t.Errorf("a deleted file has no new lines")
	}
	if !l.Has(filepath.Join(root, "sp ace.go"), 1) {
		t.Errorf("a quoted file name is read")
	}
}

func TestNewRange(t *testing.T) {
	for _, c := range []struct {
		header       string
		start, count int
		ok           bool
	}{
		{"@@ -1,2 +3,4 @@", 3, 4, true},
		{"@@ -1 +3 @@ func f()", 3, 1, true},
		{"@@ -5,2 +4,0 @@", 4, 0, true},
		{"@@ -x +y @@", 0, 0, false},
		{"@@@ -1 -1 +1 @@@", 0, 0, false},
	} {
		start, count, ok := newRange(c.header)
		if start != c.start || count != c.count || ok != c.ok {
			t.Errorf("newRange(%q) = %d, %d, %v; want %d, %d, %v", c.header, start, count, ok, c.start, c.count, c.ok)
		}
	}
}
