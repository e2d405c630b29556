module queuecheck.example/jobs

go 1.26.0
