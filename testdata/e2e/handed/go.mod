module queuecheck.example/handed

go 1.26.0
