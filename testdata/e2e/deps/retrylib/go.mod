module queuecheck.example/retrylib

go 1.26.0
