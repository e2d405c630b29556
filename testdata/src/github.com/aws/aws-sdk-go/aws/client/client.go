// Package client is a stub of the AWS SDK for Go v1's client package: the
// service clients embed its Client, whose handlers retry requests.
package client

type Client struct{ Retryer any }
