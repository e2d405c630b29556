module queuecheck.example/facts

go 1.26.0
