// Package calls holds the call tables queuecheck's checks consult (which
// calls resolve a hostname, which are slow blocking work), and [Table], the
// one flag type for every check flag that names functions.
//
// A table names functions as "pkgpath.Func" and methods as
// "pkgpath.Type.Method" (pointer or value receiver alike), so
// "net/http.Client.Do" is (*http.Client).Do. A flag also takes a method as
// types.Func.FullName spells it, "(*pkgpath.Type).Method" or
// "(pkgpath.Type).Method"; a generic type is named without type arguments.
package calls

import (
	"go/types"
)

// resolving lists the standard calls that resolve a hostname before they do
// anything else: lookups, dials of a "host:port" address, and HTTP client
// requests (which dial). DialTCP, DialUDP and their kin take resolved
// addresses and are not listed.
var resolving = []string{
	"net.LookupAddr", "net.LookupCNAME", "net.LookupHost", "net.LookupIP",
	"net.LookupMX", "net.LookupNS", "net.LookupPort", "net.LookupSRV", "net.LookupTXT",
	"net.Resolver.LookupAddr", "net.Resolver.LookupCNAME", "net.Resolver.LookupHost",
	"net.Resolver.LookupIP", "net.Resolver.LookupIPAddr", "net.Resolver.LookupMX",
	"net.Resolver.LookupNS", "net.Resolver.LookupNetIP", "net.Resolver.LookupPort",
	"net.Resolver.LookupSRV", "net.Resolver.LookupTXT",
	"net.Dial", "net.DialTimeout", "net.Dialer.Dial", "net.Dialer.DialContext",
	"net.ResolveIPAddr", "net.ResolveTCPAddr", "net.ResolveUDPAddr",
	"crypto/tls.Dial", "crypto/tls.DialWithDialer", "crypto/tls.Dialer.Dial", "crypto/tls.Dialer.DialContext",
	"net/http.Get", "net/http.Head", "net/http.Post", "net/http.PostForm",
	"net/http.Client.Do", "net/http.Client.Get", "net/http.Client.Head",
	"net/http.Client.Post", "net/http.Client.PostForm",
	"net/http.Transport.RoundTrip",
	"net/rpc.Dial", "net/rpc.DialHTTP", "net/rpc.DialHTTPPath", "net/rpc/jsonrpc.Dial",
	"net/smtp.Dial", "net/smtp.SendMail",
}

// slow lists the standard calls that block for long: sleeping, file I/O,
// running a program, and database queries.
var slow = []string{
	"time.Sleep",
	"os.ReadFile", "os.WriteFile", "os.ReadDir",
	"os.File.Read", "os.File.ReadAt", "os.File.ReadFrom", "os.File.ReadDir",
	"os.File.Readdir", "os.File.Readdirnames", "os.File.Write", "os.File.WriteAt",
	"os.File.WriteString", "os.File.WriteTo", "os.File.Sync",
	"io/ioutil.ReadFile", "io/ioutil.WriteFile", "io/ioutil.ReadDir",
	"os/exec.Cmd.Run", "os/exec.Cmd.Output", "os/exec.Cmd.CombinedOutput", "os/exec.Cmd.Wait",
	"database/sql.DB.Exec", "database/sql.DB.ExecContext", "database/sql.DB.Query",
	"database/sql.DB.QueryContext", "database/sql.DB.QueryRow", "database/sql.DB.QueryRowContext",
	"database/sql.Tx.Exec", "database/sql.Tx.ExecContext", "database/sql.Tx.Query",
	"database/sql.Tx.QueryContext", "database/sql.Tx.QueryRow", "database/sql.Tx.QueryRowContext",
	"database/sql.Stmt.Exec", "database/sql.Stmt.ExecContext", "database/sql.Stmt.Query",
	"database/sql.Stmt.QueryContext", "database/sql.Stmt.QueryRow", "database/sql.Stmt.QueryRowContext",
	"database/sql.Conn.ExecContext", "database/sql.Conn.QueryContext", "database/sql.Conn.QueryRowContext",
}

// Key returns the name of fn in a table: "pkgpath.Func" or
// "pkgpath.Type.Method".
func Key(fn *types.Func) string {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return fn.Name()
	}
	if recv := RecvName(fn); recv != "" {
		return fn.Pkg().Path() + "." + recv + "." + fn.Name()
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// RecvName returns the name of the type fn is a method of, without pointer or
// type arguments, or "" when fn is not a method of a named type.
func RecvName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}
