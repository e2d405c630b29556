package knowledge

// The lists, by the check that consults them first. A list consulted by a
// package every check shares (report, sendselect, timing) comes under the
// check whose flag changes it, or last.

// resolverpool

// ResolvingCalls lists the standard calls that resolve a hostname before
// they do anything else. DialTCP, DialUDP and their kin take resolved
// addresses and are not listed.
var ResolvingCalls = newList("resolving-calls", Funcs, "resolverpool.resolve",
	"calls that resolve a hostname before they do anything else (lookups, dials of a host:port address, HTTP client requests): work that must not queue behind slow work in one pool",
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
)

// SlowCalls lists the standard calls that block for long.
var SlowCalls = newList("slow-calls", Funcs, "resolverpool.slow",
	"calls that block for long (sleeping, file I/O, running a program, SQL): work that, sharing a bounded pool with hostname resolution, delays it",
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
)

// unboundedqueue

// MessageReads names the methods that, by the conventions of message
// clients, take the next message of a stream the client pulls from.
var MessageReads = newList("message-reads", Methods, "unboundedqueue.messagereads",
	"methods that take the next message of a stream a client pulls from (kafka-go's ReadMessage and FetchMessage, NATS's NextMsg, a gRPC stream's Recv, a WebSocket's ReadMessage, CloudEvents' Receive and Respond, sing's packet reads): a loop that starts a goroutine per message read is a goroutine per item",
	"ReadMessage", "FetchMessage", "NextMsg",
	"NextMessage", "ReceiveMessage", "Recv",
	"Receive", "Respond",
	"ReadPacket", "WaitReadPacket",
)

// PacketReads names the methods of package net that read the next datagram
// of a packet connection.
var PacketReads = newList("packet-reads", Methods, "",
	"methods of package net that read the next datagram of a packet connection: a loop that starts a goroutine per datagram has nothing between the sender's rate and the goroutines in flight",
	"ReadFrom", "ReadFromUDP", "ReadFromUDPAddrPort",
	"ReadMsgUDP", "ReadMsgUDPAddrPort", "ReadFromIP",
	"ReadMsgIP", "ReadFromUnix", "ReadMsgUnix",
)

// HeapMethods lists the methods besides Push that make a type a heap
// (container/heap.Interface, and the forks that keep its contract): the
// slice its Push appends to is ordered by Less, a priority queue.
var HeapMethods = newList("heap-methods", Methods, "",
	"the methods besides Push of container/heap.Interface: a type with them all keeps a priority heap, not a FIFO, in the slice its Push appends to",
	"Len", "Less", "Swap", "Pop",
)

// AMQPPackages lists the AMQP 0.9.1 client packages.
var AMQPPackages = newList("amqp-packages", Packages, "unboundedqueue.amqp",
	"AMQP 0.9.1 client packages: a goroutine per Delivery of a consumer is bounded by the channel's prefetch (Qos) when acknowledgements are manual",
	"github.com/streadway/amqp", "github.com/rabbitmq/amqp091-go",
)

// ReplyMethods are the methods of a stream that send a reply.
var ReplyMethods = newList("reply-methods", Methods, "",
	"methods of a stream that send on it (a gRPC stream's Send and SendMsg): a goroutine per message read from a stream that replies on it is a reply in lock step, not a task per item",
	"Send", "SendMsg",
)

// StreamMethods are the methods a stream has.
var StreamMethods = newList("stream-methods", Methods, "",
	"methods a type has when it is a stream, which reads, writes and closes (io.ReadWriteCloser's method set): a goroutine per stream is one per entity, not per message",
	"Read", "Write", "Close",
)

// RPCStreamMethods are the methods a streaming RPC's stream has.
var RPCStreamMethods = newList("rpc-stream-methods", Methods, "",
	"methods a parameter's interface type has when it is the stream a streaming RPC method is given (grpc.ServerStream's): the method serves one call, and the stream is answered when it returns",
	"Context", "SendMsg", "RecvMsg",
)

// ConnMethods are the methods a connection has.
var ConnMethods = newList("conn-methods", Methods, "",
	"methods a type has when it is a connection, as net.Conn is: a goroutine per connection is one per entity, not per message",
	"Read", "Write", "Close", "RemoteAddr",
)

// NonItemTypes are the channel element types that carry no item.
var NonItemTypes = newList("non-item-types", Types, "",
	"channel element types that carry a signal or a tick, not an item of work: a channel of them is not a queue of items",
	"time.Time", "os.Signal",
)

// BoundedDequeWords are the words of a deque type's name that say it holds
// a fixed number of items.
var BoundedDequeWords = newList("bounded-deque-words", Words, "unboundedqueue.boundedwords",
	"words of a double-ended queue type's name (lower-cased) that say it is a ring of fixed capacity, which overwrites the oldest item: such a deque is not reported as unbounded",
	"ring", "bounded", "fixed", "circular", "capped",
)

// retrysend

// DropWords are the words a counter's name has when it counts lost items.
var DropWords = newList("drop-words", Words, "retrysend.dropwords",
	"words of a counter's name (lower-cased) that say it counts lost items: incrementing one in a select's default case is a drop, and a fix keeps it",
	"drop", "discard", "overflow", "shed", "lost", "reject", "skip", "full",
)

// LoggerMethods are the logging methods of logger types of other libraries.
var LoggerMethods = newList("logger-methods", Methods, "retrysend.logmethods",
	"methods of a logger type (a type whose name has Log, or logrus's Entry), with a trailing f or w trimmed, that log at some level: a call of one is bookkeeping, not work, and a Fatal or Panic one ends the goroutine",
	"Print", "Println", "Debug", "Info", "Warn",
	"Warning", "Error", "Log",
)

// LoggerTypeWords are the words of a type's name that say it is a logger.
var LoggerTypeWords = newList("logger-type-words", CasedWords, "",
	"words of a type's name, as written, that say it is a logger (Logger, SugaredLogger, LogSink): its logging methods are bookkeeping, and a fix that logs a dropped item may use a field of such a type",
	"Log",
)

// MetricsTypeWords are the words of an interface's name that say it is a
// sink of metrics.
var MetricsTypeWords = newList("metrics-type-words", CasedWords, "",
	"words of an interface's name, as written, that say it records metrics (StatusMetrics, a service's seam to its Prometheus vectors): a method of it that takes no context and returns nothing is bookkeeping, not work, wherever its implementation is",
	"Metrics",
)

// LoggerTypes are the names of logger types that say nothing of logging.
var LoggerTypes = newList("logger-types", TypeNames, "",
	"names of logger types whose names say nothing of logging (logrus's Entry): their logging methods are bookkeeping",
	"Entry",
)

// LogCallPrefixes are the beginnings of the full names of the standard
// library's logging and printing functions.
var LogCallPrefixes = newList("log-call-prefixes", Prefixes, "",
	"beginnings of the full names of the standard library's logging and printing calls: such a call between attempts is bookkeeping, not work (and a Fatal or Panic one ends the goroutine)",
	"log.", "(*log.Logger).", "log/slog.", "(*log/slog.Logger).", "fmt.Print", "fmt.Fprint",
)

// NoReturnLogWords are the words of a logging call's name that say it does
// not return.
var NoReturnLogWords = newList("no-return-log-words", CasedWords, "",
	"words of a logging call's full name that say it ends the goroutine or the process (log.Fatal, logger.Panicf): a loop that calls one does not retry",
	"Fatal", "Panic",
)

// MetricTypeWords are the words of a type's name that say its Add counts.
var MetricTypeWords = newList("metric-type-words", CasedWords, "",
	"words of a type's name that say it is a Prometheus-style counter or gauge, whose Add counts rather than, say, adds to a WaitGroup: a call of it is bookkeeping",
	"Counter", "Gauge",
)

// WarnMethods are the warning methods a fix that logs a drop prefers, in
// order.
var WarnMethods = newList("warn-methods", Methods, "",
	"methods of a logger, in order of preference, that the fix which logs a dropped item calls: a warning",
	"Warn", "Warning", "Warnf", "Warningf",
)

// LevelMethods are the methods the code may already log with that a fix
// logging a drop may use after a warning.
var LevelMethods = newList("level-methods", Methods, "",
	"methods of a logger, with a trailing f trimmed, that the fix which logs a dropped item may call when the code already logs with one and the logger has no warning",
	"Info", "Error", "Debug", "Print", "Println",
)

// PrintMethods are the print methods a fix logging a drop falls back on.
var PrintMethods = newList("print-methods", Methods, "",
	"methods of a logger, in order of preference, that the fix which logs a dropped item falls back on",
	"Printf", "Print", "Println",
)

// IDSuffixes are the endings of a field name that say it identifies the
// item it belongs to.
var IDSuffixes = newList("id-suffixes", Suffixes, "",
	"endings of a field's name (lower-cased) that say it identifies its item: an overflow map keyed by the item's id stores each item at most once",
	"id", "seq", "uuid", "nonce", "serial",
)

// RandomPackages are the packages whose calls only pick a number.
var RandomPackages = newList("random-packages", Packages, "",
	"packages whose calls only pick a number (jitter): a call of one between attempts neither waits nor does work",
	"math/rand", "math/rand/v2",
)

// waittiming

// InterceptorHandlerTypes are the handler types a server's interceptor is
// handed.
var InterceptorHandlerTypes = newList("interceptor-handler-types", Types, "",
	"types of the handler a gRPC interceptor is handed: a function that takes one serves the request, and a measurement in it that covers the wait is a total",
	"google.golang.org/grpc.UnaryHandler", "google.golang.org/grpc.StreamHandler",
)

// QuietPackages do bookkeeping, not work.
var QuietPackages = newList("quiet-packages", Packages, "waittiming.quiet",
	"packages that do bookkeeping, not work (formatting, logging, metrics, tracing spans, errors): a call of one between the wait and the end of a measurement does not make it cover work",
	"time", "fmt", "log", "log/slog", "errors",
	"strings", "strconv", "context", "sync", "sync/atomic",
	"math", "sort", "slices", "maps", "unicode/utf8",
	"runtime/trace", "expvar",
	"github.com/armon/go-metrics", "github.com/hashicorp/go-metrics",
	"go.uber.org/zap", "github.com/sirupsen/logrus", "github.com/go-logr/logr",
	"github.com/rs/zerolog", "k8s.io/klog/v2", "github.com/go-kit/log",
	"go.opentelemetry.io/otel/trace", "go.opentelemetry.io/otel/attribute", "go.opentelemetry.io/otel/codes",
)

// RecordingPackages are the quiet packages whose calls record what
// happened.
var RecordingPackages = newList("recording-packages", Packages, "",
	"quiet packages whose calls record what happened (logging, metrics, tracing; and Prometheus's client, by its path): a function of the service that makes such calls and only quiet ones otherwise is bookkeeping, no work, in every package that calls it",
	"log", "log/slog", "runtime/trace", "expvar",
	"github.com/armon/go-metrics", "github.com/hashicorp/go-metrics",
	"go.uber.org/zap", "github.com/sirupsen/logrus", "github.com/go-logr/logr",
	"github.com/rs/zerolog", "k8s.io/klog/v2", "github.com/go-kit/log",
	"go.opentelemetry.io/otel/trace", "go.opentelemetry.io/otel/attribute", "go.opentelemetry.io/otel/codes",
)

// PollIntervalWords are the words of a pause's name that say it paces a
// poll.
var PollIntervalWords = newList("poll-interval-words", Words, "waittiming.pollwords",
	"words of an identifier in a pause (lower-cased) that say it is a poll's interval: the pause paces a loop, it does not back off, and a measurement across it is not a retry's",
	"interval", "poll", "tick", "period", "every", "refresh",
)

// RetryPauseWords are the words of a pause's name that say it spaces
// retries, whatever else the name says.
var RetryPauseWords = newList("retry-pause-words", Words, "",
	"words of an identifier in a pause (lower-cased) that say it spaces retries (retryInterval, backoffPeriod): they outweigh poll-interval-words, and the loop it pauses is a retry",
	"retr", "backoff",
)

// RetryingCalls lists library calls that retry their operation with
// pauses between attempts, as their options say: a measurement whose only
// work is one of them is mostly the pauses when the operation fails.
var RetryingCalls = newList("retrying-calls", Funcs, "waittiming.retries",
	"library calls that retry an operation with a backoff or fixed delay between attempts, set by their options (cenkalti/backoff Retry, avast/retry-go Do, go-retryablehttp's Client, k8s.io wait.ExponentialBackoff and client-go's RetryOnConflict, sethvargo/go-retry Do, buildkite/roko's and eapache/go-resiliency's Retrier, gax-go's Invoke; and clients that retry by default: minio-go v7's object and bucket operations, up to 10 attempts with exponential backoff; Vault's api Logical and KV operations, through go-retryablehttp, 2 retries after 1 to 1.5 s and 2 to 3 s; golang.org/x/crypto/acme's Client requests, on 429, 5xx and bad-nonce responses with exponential backoff up to 10 s and no limit but the context's): a measurement whose only work is one of them reports the pauses as slow work",
	"github.com/cenkalti/backoff.Retry", "github.com/cenkalti/backoff.RetryNotify",
	"github.com/cenkalti/backoff/v3.Retry", "github.com/cenkalti/backoff/v3.RetryNotify",
	"github.com/cenkalti/backoff/v4.Retry", "github.com/cenkalti/backoff/v4.RetryNotify",
	"github.com/cenkalti/backoff/v4.RetryWithData", "github.com/cenkalti/backoff/v4.RetryNotifyWithData",
	"github.com/cenkalti/backoff/v4.RetryNotifyWithTimer",
	"github.com/cenkalti/backoff/v5.Retry",
	"github.com/avast/retry-go.Do", "github.com/avast/retry-go/v4.Do", "github.com/avast/retry-go/v4.DoWithData",
	"github.com/hashicorp/go-retryablehttp.Client.Do", "github.com/hashicorp/go-retryablehttp.Client.Get",
	"github.com/hashicorp/go-retryablehttp.Client.Head", "github.com/hashicorp/go-retryablehttp.Client.Post",
	"github.com/hashicorp/go-retryablehttp.Client.PostForm",
	"k8s.io/apimachinery/pkg/util/wait.ExponentialBackoff", "k8s.io/apimachinery/pkg/util/wait.ExponentialBackoffWithContext",
	"k8s.io/client-go/util/retry.RetryOnConflict", "k8s.io/client-go/util/retry.OnError",
	"github.com/sethvargo/go-retry.Do",
	"github.com/avast/retry-go/v5.Retrier.Do", "github.com/avast/retry-go/v5.RetrierWithData.Do",
	"github.com/buildkite/roko.Retrier.Do", "github.com/buildkite/roko.Retrier.DoWithContext",
	"github.com/buildkite/roko.DoFunc", "github.com/buildkite/roko.DoFunc2",
	"github.com/eapache/go-resiliency/retrier.Retrier.Run", "github.com/eapache/go-resiliency/retrier.Retrier.RunCtx",
	"github.com/eapache/go-resiliency/retrier.Retrier.RunFn",
	"github.com/googleapis/gax-go/v2.Invoke",
	"github.com/minio/minio-go/v7.Client.PutObject", "github.com/minio/minio-go/v7.Client.FPutObject",
	"github.com/minio/minio-go/v7.Client.FGetObject", "github.com/minio/minio-go/v7.Client.StatObject",
	"github.com/minio/minio-go/v7.Client.RemoveObject", "github.com/minio/minio-go/v7.Client.CopyObject",
	"github.com/minio/minio-go/v7.Client.ComposeObject", "github.com/minio/minio-go/v7.Client.BucketExists",
	"github.com/minio/minio-go/v7.Client.MakeBucket", "github.com/minio/minio-go/v7.Client.RemoveBucket",
	"github.com/minio/minio-go/v7.Client.ListBuckets",
	"github.com/hashicorp/vault/api.Logical.Read", "github.com/hashicorp/vault/api.Logical.ReadWithContext",
	"github.com/hashicorp/vault/api.Logical.Write", "github.com/hashicorp/vault/api.Logical.WriteWithContext",
	"github.com/hashicorp/vault/api.Logical.List", "github.com/hashicorp/vault/api.Logical.ListWithContext",
	"github.com/hashicorp/vault/api.Logical.Delete", "github.com/hashicorp/vault/api.Logical.DeleteWithContext",
	"github.com/hashicorp/vault/api.KVv1.Get", "github.com/hashicorp/vault/api.KVv1.Put", "github.com/hashicorp/vault/api.KVv1.Delete",
	"github.com/hashicorp/vault/api.KVv2.Get", "github.com/hashicorp/vault/api.KVv2.GetVersion", "github.com/hashicorp/vault/api.KVv2.Put",
	"github.com/hashicorp/vault/api.KVv2.Patch", "github.com/hashicorp/vault/api.KVv2.Delete",
	"golang.org/x/crypto/acme.Client.Discover", "golang.org/x/crypto/acme.Client.Register",
	"golang.org/x/crypto/acme.Client.GetReg", "golang.org/x/crypto/acme.Client.UpdateReg",
	"golang.org/x/crypto/acme.Client.DeactivateReg", "golang.org/x/crypto/acme.Client.AccountKeyRollover",
	"golang.org/x/crypto/acme.Client.Authorize", "golang.org/x/crypto/acme.Client.AuthorizeOrder",
	"golang.org/x/crypto/acme.Client.GetAuthorization", "golang.org/x/crypto/acme.Client.RevokeAuthorization",
	"golang.org/x/crypto/acme.Client.GetOrder", "golang.org/x/crypto/acme.Client.GetChallenge",
	"golang.org/x/crypto/acme.Client.Accept", "golang.org/x/crypto/acme.Client.FetchCert",
	"golang.org/x/crypto/acme.Client.ListCertAlternates", "golang.org/x/crypto/acme.Client.RevokeCert",
)

// RetryingClientTrees are the SDKs whose service clients retry every
// request by default: their operations are too many to list one by one.
var RetryingClientTrees = newList("retrying-client-trees", PackageTrees, "waittiming.retryclients",
	"SDKs whose service clients retry every request by default with a backoff between attempts (the AWS SDK for Go, v1 and v2: the standard retryer, 3 attempts with jittered exponential backoff; the Azure SDK for Go: azcore's retry policy, 3 retries with exponential delay): an exported method there that takes a context first and returns an error, of a type named like a client (s3's Client, armdns's RecordSetsClient) or named ...WithContext on a v1 service client, retries with pauses like the calls of retrying-calls; Wait..., Poll... and Receive... methods wait for a state or for messages, Presign... methods only sign and Close sends no retried request: they are left out",
	"github.com/aws/aws-sdk-go-v2", "github.com/aws/aws-sdk-go", "github.com/Azure/azure-sdk-for-go/sdk",
)

// NonRetryingSDKMethods are the beginnings of the names of an SDK client's
// methods whose time is not attempts and pauses.
var NonRetryingSDKMethods = newList("non-retrying-sdk-methods", NamePrefixes, "",
	"beginnings of the names of methods of the clients of retrying-client-trees whose time is not a request's attempts and pauses: waiters and polls, receives that block until messages arrive, presigners, which only sign, and Close",
	"Wait", "Poll", "Receive", "Presign", "Close",
)

// PooledCalls lists library calls that check a connection out of their
// client's pool before their work, from a pool that keeps no wait figure
// its callers read: a measurement of one times the queue for a connection
// as the call's work.
var PooledCalls = newList("pooled-calls", Funcs, "",
	"library calls that check a connection out of their client's pool before their work, a pool that keeps no wait figure of its own (the MongoDB driver's collection and database operations, v1 and v2, and a session's commit and abort, v2): a measurement of one reports the queue for a connection as the operation's time",
	"go.mongodb.org/mongo-driver/mongo.Collection.Aggregate", "go.mongodb.org/mongo-driver/mongo.Collection.BulkWrite", "go.mongodb.org/mongo-driver/mongo.Collection.CountDocuments",
	"go.mongodb.org/mongo-driver/mongo.Collection.DeleteMany", "go.mongodb.org/mongo-driver/mongo.Collection.DeleteOne", "go.mongodb.org/mongo-driver/mongo.Collection.Distinct",
	"go.mongodb.org/mongo-driver/mongo.Collection.EstimatedDocumentCount", "go.mongodb.org/mongo-driver/mongo.Collection.Find", "go.mongodb.org/mongo-driver/mongo.Collection.FindOne",
	"go.mongodb.org/mongo-driver/mongo.Collection.FindOneAndDelete", "go.mongodb.org/mongo-driver/mongo.Collection.FindOneAndReplace", "go.mongodb.org/mongo-driver/mongo.Collection.FindOneAndUpdate",
	"go.mongodb.org/mongo-driver/mongo.Collection.InsertMany", "go.mongodb.org/mongo-driver/mongo.Collection.InsertOne", "go.mongodb.org/mongo-driver/mongo.Collection.ReplaceOne",
	"go.mongodb.org/mongo-driver/mongo.Collection.UpdateByID", "go.mongodb.org/mongo-driver/mongo.Collection.UpdateMany", "go.mongodb.org/mongo-driver/mongo.Collection.UpdateOne",
	"go.mongodb.org/mongo-driver/v2/mongo.Collection.Aggregate", "go.mongodb.org/mongo-driver/v2/mongo.Collection.BulkWrite", "go.mongodb.org/mongo-driver/v2/mongo.Collection.CountDocuments",
	"go.mongodb.org/mongo-driver/v2/mongo.Collection.DeleteMany", "go.mongodb.org/mongo-driver/v2/mongo.Collection.DeleteOne", "go.mongodb.org/mongo-driver/v2/mongo.Collection.Distinct",
	"go.mongodb.org/mongo-driver/v2/mongo.Collection.EstimatedDocumentCount", "go.mongodb.org/mongo-driver/v2/mongo.Collection.Find", "go.mongodb.org/mongo-driver/v2/mongo.Collection.FindOne",
	"go.mongodb.org/mongo-driver/v2/mongo.Collection.FindOneAndDelete", "go.mongodb.org/mongo-driver/v2/mongo.Collection.FindOneAndReplace", "go.mongodb.org/mongo-driver/v2/mongo.Collection.FindOneAndUpdate",
	"go.mongodb.org/mongo-driver/v2/mongo.Collection.InsertMany", "go.mongodb.org/mongo-driver/v2/mongo.Collection.InsertOne", "go.mongodb.org/mongo-driver/v2/mongo.Collection.ReplaceOne",
	"go.mongodb.org/mongo-driver/v2/mongo.Collection.UpdateByID", "go.mongodb.org/mongo-driver/v2/mongo.Collection.UpdateMany", "go.mongodb.org/mongo-driver/v2/mongo.Collection.UpdateOne",
	"go.mongodb.org/mongo-driver/v2/mongo.Session.CommitTransaction", "go.mongodb.org/mongo-driver/v2/mongo.Session.AbortTransaction",
	"go.mongodb.org/mongo-driver/mongo.Database.Aggregate", "go.mongodb.org/mongo-driver/mongo.Database.RunCommand", "go.mongodb.org/mongo-driver/mongo.Database.RunCommandCursor",
	"go.mongodb.org/mongo-driver/v2/mongo.Database.Aggregate", "go.mongodb.org/mongo-driver/v2/mongo.Database.RunCommand", "go.mongodb.org/mongo-driver/v2/mongo.Database.RunCommandCursor",
)

// TotalWords are the words of a record that say it measures the whole.
var TotalWords = newList("total-words", Words, "",
	"words of the statement that records a measurement (lower-cased, without separators) that say the figure is a total: it is meant to include the wait",
	"total", "e2e", "endtoend", "overall",
)

// RetryRecordWords are the words of a record that say it measures the
// retries.
var RetryRecordWords = newList("retry-record-words", Words, "",
	"words of the statement that records a measurement (lower-cased, without separators) that say it is meant to include a retry loop's pauses",
	"ready", "until", "wait", "retr", "attempt", "backoff",
)

// QueueRecordWords are the words of a record that say it measures the time
// an item queued.
var QueueRecordWords = newList("queue-record-words", Words, "",
	"words of the statement that records the time since a field stamped when its item was queued (lower-cased, without separators) that say the figure is meant to include the queueing: its age, lag or delay, the time it waited",
	"queue", "wait", "age", "lag", "delay", "pending", "latency",
)

// WaitBudgetWords are the words of a deadline's budget that say it bounds
// the wait.
var WaitBudgetWords = newList("wait-budget-words", Words, "",
	"words of an identifier in a deadline's budget (lower-cased) that say it bounds the wait (maxQueueDuration, waitTimeout): a deadline set before the wait is then meant to",
	"queue", "wait",
)

// StageLabels are the label names of a metric vector that say which stage
// a figure measures.
var StageLabels = newList("stage-labels", Labels, "",
	"label names of a Prometheus metric vector (lower-cased) that say which stage a figure measures: the fix records the wait under the stage value \"wait\"",
	"stage", "phase", "step",
)

// StartWords are the words of a parameter's name that say it is a start
// time.
var StartWords = newList("start-words", Words, "",
	"words of a time.Time parameter's name (lower-cased) that say it is when a measurement started: a call that passes a start time ends a measurement",
	"start", "begin", "since", "from", "t0",
)

// MeasureWords are the words of a function's name that say it records a
// duration.
var MeasureWords = newList("measure-words", Words, "",
	"words of a function's name (lower-cased) that say it records a duration from the time.Time it is passed: calling it ends a measurement",
	"since", "elapsed", "measure", "latency", "duration", "timing",
)

// admission (every check's waits)

// TakeReleaseMethods are the methods that give back what a Take took, in
// the order the release is named by.
var TakeReleaseMethods = newList("take-release-methods", Methods, "",
	"methods, in order of preference, whose presence beside a Take method makes the type a semaphore (Take is the acquire, the first of these the release)",
	"Give", "Release", "Put",
)

// ReleaseMethods are the methods that release a slot of an admission.
var ReleaseMethods = newList("release-methods", Methods, "",
	"methods that give back a slot of a semaphore or a gate: a helper whose body calls one on what it acquired releases it",
	"Release", "Give", "Put", "Done",
)

// LengthNames are the names of a store's length, for condition loops.
var LengthNames = newList("length-names", Labels, "",
	"names (lower-cased) of a method without arguments or an integer field that is a store's length: a condition-variable loop that waits while a read position is at it (q.current >= q.len) waits for the store to fill",
	"len", "length", "size", "count",
)

// BlockingMethods are the method names that, called in a helper, make it
// block.
var BlockingMethods = newList("blocking-methods", Methods, "",
	"method names that block until a slot, a token or a lock is free: a helper that calls one, sends or receives blocks, so a call of it is a wait",
	"Wait", "WaitN", "Acquire", "Lock",
)

// BackoffWords are the words that name a backoff.
var BackoffWords = newList("backoff-words", Words, "",
	"words of an identifier or a type's name (lower-cased) that say it is a backoff: a Wait or Sleep method of such a type, a timer of such a delay, and a Duration from such a type are pauses between attempts",
	"backoff",
)

// LimiterWords are the words of a type's name that say it limits a rate.
var LimiterWords = newList("limiter-words", Words, "",
	"words of a type's name (lower-cased) that say it is a rate limiter: its Wait(ctx) or WaitN(ctx, n) is an admission wait",
	"limiter",
)

// PoolWords are the endings of a type's name that say it pools resources.
var PoolWords = newList("pool-words", Suffixes, "",
	"endings of a type's name (lower-cased) that say it pools connections or other resources: in strict mode, its Get(ctx, …) or GetContext(ctx, …) that returns an error is a checkout that waits for a free one (a type that only names a pool, such as a client of NodePool resources, ends otherwise)",
	"pool",
)

// GateWords are the words of a type's or a package's name that say it is a
// gate.
var GateWords = newList("gate-words", Words, "",
	"words of a type's or a package's name (lower-cased) that say it is a gate: in strict mode, its Start beside Done is an admission wait (services start and stop with the same names)",
	"gate",
)

// every check

// TestFrameworks are the test frameworks whose import marks test support.
var TestFrameworks = newList("test-frameworks", PackageTrees, "",
	"test frameworks (and the packages below them): a file that imports one, or package testing, is test support, and its findings are not reported",
	"github.com/onsi/ginkgo", "github.com/onsi/gomega", "github.com/stretchr/testify",
)

// TestSupportElements are the import path elements of test support
// packages.
var TestSupportElements = newList("test-support-elements", PathElements, "",
	"import path elements that name a package of test support (mocks, fakes, fixtures): its findings are not reported",
	"mock", "mocks", "fake", "fakes", "testutil", "testutils", "testhelper", "testhelpers", "testing",
)

// ContextBinders lists calls that only bind a context or read from it.
var ContextBinders = newList("context-binders", Funcs, "",
	"calls that bind a context to a request, a span or an outgoing call's metadata, or read a value or a logger from it, and do no work the context bounds: a function that makes them before its admission wait still waits first on the context it is given",
	"net/http.NewRequestWithContext", "net/http.Request.WithContext",
	"context.WithValue", "context.WithCancel", "context.WithCancelCause",
	"go.opentelemetry.io/otel/trace.Tracer.Start", "go.opentelemetry.io/otel/trace.SpanFromContext",
	"go.opentelemetry.io/otel/trace.ContextWithSpan", "go.opentelemetry.io/otel/trace.SpanContextFromContext",
	"github.com/opentracing/opentracing-go.StartSpanFromContext", "github.com/opentracing/opentracing-go.SpanFromContext",
	"google.golang.org/grpc/metadata.FromIncomingContext", "google.golang.org/grpc/metadata.FromOutgoingContext",
	"google.golang.org/grpc/metadata.AppendToOutgoingContext", "google.golang.org/grpc/metadata.NewOutgoingContext",
	"github.com/rs/zerolog/log.Ctx", "github.com/rs/zerolog.Ctx",
	"github.com/go-logr/logr.FromContext", "github.com/go-logr/logr.FromContextOrDiscard",
)

// WorkCalls lists the standard calls, beyond SlowCalls and ResolvingCalls,
// that do I/O: a goroutine that makes one does blocking work.
var WorkCalls = newList("work-calls", Funcs, "",
	"standard calls that do I/O besides the slow and resolving calls (opening, creating, removing and renaming files, reads and writes of connections, copies of readers, transactions): a goroutine per element or per request that makes one does blocking work",
	"os.Open", "os.OpenFile", "os.Create", "os.Remove", "os.RemoveAll",
	"os.Rename", "os.Stat", "os.Lstat", "os.MkdirAll", "os.Mkdir",
	"net.Conn.Read", "net.Conn.Write", "net.TCPConn.Read", "net.TCPConn.Write", "net.UDPConn.WriteTo",
	"net/http.RoundTripper.RoundTrip",
	"io.Copy", "io.CopyN", "io.ReadAll", "io.ReadFull",
	"database/sql.DB.Begin", "database/sql.DB.BeginTx", "database/sql.DB.Ping", "database/sql.DB.PingContext", "database/sql.Tx.Commit",
)

// FixedSetWords are the words of a collection's name that say it holds the
// members of a small set the deployment fixes.
var FixedSetWords = newList("fixed-set-words", Words, "",
	"words of a collection's name that say it holds the members of a small set the deployment fixes (the peers of a cluster, the replicas of a quorum, the disks and pools of a server, the zones of a ring): a fan-out over it is as wide as the cluster, not the data",
	"peer", "replica", "site", "pool", "disk", "drive", "zone", "shard", "region", "member", "server",
)

// CopyPackages are the packages whose functions return a copy, a view or
// a sorted order of the collection they are given as first argument.
var CopyPackages = newList("copy-packages", Packages, "",
	"packages whose functions return or sort the collection of their first argument (maps.Keys, slices.Clone, sort.Strings): the result is as large as the argument, so its size comes from where the argument's does",
	"maps", "slices", "sort", "golang.org/x/exp/maps", "golang.org/x/exp/slices",
)

// ClaimMethods are the methods whose success claims shared state for the
// caller alone.
var ClaimMethods = newList("claim-methods", Methods, "",
	"methods whose success claims shared state for one caller (an atomic swap, a map's first store, a try-lock or try-acquire): a go statement under one starts at most one goroutine per claim",
	"CompareAndSwap", "LoadOrStore", "TryLock", "TryAcquire", "TryGo", "Swap",
)

// EventHandlerTypes are the handler types of event frameworks whose
// callbacks run once per event.
var EventHandlerTypes = newList("event-handler-types", Types, "",
	"handler types of event frameworks whose callbacks run once per event: a function literal given as a field of such a struct literal (AddFunc: func(obj any) {…}), or a method of a type that implements such an interface, serves one event, like a request's handler",
	"k8s.io/client-go/tools/cache.ResourceEventHandlerFuncs", "k8s.io/client-go/tools/cache.ResourceEventHandlerDetailedFuncs",
	"k8s.io/client-go/tools/cache.ResourceEventHandler",
)

// LifecycleMethods are the names of a component's methods that run once
// per component, until its context ends.
var LifecycleMethods = newList("lifecycle-methods", Methods, "",
	"names of a method that starts or runs a component until the context it is given ends (a cache's Start, a server's Serve): it runs once per component, so a goroutine it leaves parked when that context ends does not grow with load, and a channel of values with such a method taking a context hands out components, one goroutine each, not messages",
	"Start", "Run", "Serve",
)

// NewValueWords are the words of a function's name that say each call
// makes a new value.
var NewValueWords = newList("new-value-words", Words, "",
	"words of a function's name (lower-cased) that say each call makes a new value (a client it dials, a connection it opens): a map keyed by such results has a key per element, not one per destination the elements share",
	"new", "dial", "open", "connect", "create", "make",
)

// ConfigTypeSuffixes end the names of the types of configurations.
var ConfigTypeSuffixes = newList("config-type-suffixes", Suffixes, "",
	"endings of a type's name, in lower case, that say it is a configuration (what a call returns together with an error is a listing, unless it is one of these, or the function is named for a configuration: loadConfig, configUpdateCheck): what an operator set is as wide as the operator made it, not the load",
	"config", "cfg", "configuration", "options", "settings",
)

// RequestContextTypes are the types web frameworks hand a handler once per
// request, in place of an *http.Request.
var RequestContextTypes = newList("request-context-types", Types, "",
	"types an HTTP framework gives its handlers, one value per request, in place of net/http's *http.Request (gin's *Context, echo's Context, fiber's *Ctx, fasthttp's *RequestCtx): a function that takes one serves one request, and the request's context is the one its request gives (c.Request.Context(), c.Request().Context())",
	"github.com/gin-gonic/gin.Context",
	"github.com/labstack/echo/v4.Context", "github.com/labstack/echo.Context",
	"github.com/gofiber/fiber/v2.Ctx", "github.com/gofiber/fiber/v3.Ctx",
	"github.com/valyala/fasthttp.RequestCtx",
	"github.com/cloudwego/hertz/pkg/app.RequestContext",
)

// RequestTypeSuffixes end the names of the types of requests and messages.
var RequestTypeSuffixes = newList("request-type-suffixes", Suffixes, "",
	"endings of a struct type's name, in lower case, that say it is a request or a message, as HTTP, RPC and message frameworks and the code generated for them name them: its collections are as wide as the sender made them, and a function given one serves one request",
	"request", "req", "message", "msg", "event", "query", "payload",
)
