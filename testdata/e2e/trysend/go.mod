module queuecheck.example/trysend

go 1.26.0
