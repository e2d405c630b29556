module queuecheck.example/gcllint

go 1.26.0
