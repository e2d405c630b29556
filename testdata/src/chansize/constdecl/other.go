//go:build queuecheck_other

package constdecl

var spoolIndex [spool / 1000]int
