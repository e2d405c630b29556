// Package s3 is a stub of the AWS SDK for Go v2's S3 client, whose
// operations retry by default (the standard retryer).
package s3

import "context"

type Options struct{ RetryMaxAttempts int }

type Client struct{}

type PutObjectInput struct{ Bucket, Key *string }
type PutObjectOutput struct{ ETag *string }

func (c *Client) PutObject(ctx context.Context, in *PutObjectInput, optFns ...func(*Options)) (*PutObjectOutput, error) {
	return &PutObjectOutput{}, nil
}

type HeadBucketInput struct{ Bucket *string }

// Options returns the client's options: no request.
func (c *Client) Options() Options { return Options{} }

type PresignClient struct{}

type PresignedHTTPRequest struct{ URL string }

// PresignGetObject signs a request; it sends none.
func (c *PresignClient) PresignGetObject(ctx context.Context, in *PutObjectInput) (*PresignedHTTPRequest, error) {
	return &PresignedHTTPRequest{}, nil
}

// A BucketExistsWaiter polls HeadBucket until the bucket exists.
type BucketExistsWaiter struct{}

func NewBucketExistsWaiter(c *Client) *BucketExistsWaiter { return &BucketExistsWaiter{} }

type CreateBucketInput struct{ Bucket *string }
type CreateBucketOutput struct{}

func (c *Client) CreateBucket(ctx context.Context, in *CreateBucketInput, optFns ...func(*Options)) (*CreateBucketOutput, error) {
	return &CreateBucketOutput{}, nil
}

func (w *BucketExistsWaiter) Wait(ctx context.Context, in *HeadBucketInput) error { return nil }
