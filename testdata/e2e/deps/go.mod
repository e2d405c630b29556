module queuecheck.example/deps

go 1.26.0

require queuecheck.example/retrylib v0.0.0

replace queuecheck.example/retrylib => ./retrylib
