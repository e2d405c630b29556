module queuecheck.example/dispatch

go 1.26.0
