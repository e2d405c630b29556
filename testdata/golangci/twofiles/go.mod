module queuecheck.example/twofiles

go 1.26.0
