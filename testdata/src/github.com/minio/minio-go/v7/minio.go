// Package minio is a stub of minio-go v7, whose requests retry with
// backoff by default.
package minio

import (
	"context"
	"io"
)

type Client struct{}

type PutObjectOptions struct{ ContentType string }
type UploadInfo struct{ Size int64 }
type GetObjectOptions struct{}

// Object reads an object lazily: GetObject sends no request.
type Object struct{}

func (c *Client) PutObject(ctx context.Context, bucket, name string, r io.Reader, size int64, opts PutObjectOptions) (UploadInfo, error) {
	return UploadInfo{}, nil
}

func (c *Client) GetObject(ctx context.Context, bucket, name string, opts GetObjectOptions) (*Object, error) {
	return &Object{}, nil
}
