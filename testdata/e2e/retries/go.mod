module queuecheck.example/retries

go 1.26.0
