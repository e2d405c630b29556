module queuecheck.example/implwait

go 1.26.0
