module queuecheck.example/condwait

go 1.26.0
