// Package sdkretry times calls of SDK clients that retry every request by
// default (knowledge lists retrying-client-trees and retrying-calls).
package sdkretry

import (
	"bytes"
	"context"
	"log"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go/service/sqs"
	"github.com/minio/minio-go/v7"
)

// Put's figure is the S3 call alone, its input built with the SDK's
// helpers: under failure it is mostly the standard retryer's backoff.
func Put(ctx context.Context, c *s3.Client, bucket, key string) error {
	start := time.Now()
	_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	log.Printf("put took %v", time.Since(start)) // want `the duration since start spans \(\*s3\.Client\)\.PutObject, whose attempts are separated by the backoff of its SDK's default retries`
	return err
}

// Send times a v1 request sent with a context. Its only work is the
// retrying call, so its callers' figures see its retries too (a fact).
func Send(ctx context.Context, c *sqs.SQS, body string) error { // want Send:"retries between the backoff of its SDK's default retries"
	start := time.Now()
	_, err := c.SendMessageWithContext(ctx, &sqs.SendMessageInput{MessageBody: &body})
	log.Printf("send took %v", time.Since(start)) // want `the duration since start spans \(\*sqs\.SQS\)\.SendMessageWithContext, whose attempts are separated by the backoff of its SDK's default retries`
	return err
}

// Upload times a minio-go upload, listed one by one in retrying-calls.
func Upload(ctx context.Context, c *minio.Client, bucket, name string, data []byte) error {
	r, size := bytes.NewReader(data), int64(len(data))
	start := time.Now()
	_, err := c.PutObject(ctx, bucket, name, r, size, minio.PutObjectOptions{})
	log.Printf("upload took %v", time.Since(start)) // want `the duration since start spans \(\*minio\.Client\)\.PutObject, whose attempts are separated by the delays its retry options set`
	return err
}

// Presign signs a request: no request is sent, none is retried.
func Presign(ctx context.Context, c *s3.PresignClient, bucket string) (string, error) {
	start := time.Now()
	req, err := c.PresignGetObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket)})
	log.Printf("presign took %v", time.Since(start))
	if err != nil {
		return "", err
	}
	return req.URL, nil
}

// AwaitBucket polls until the bucket exists: waiting is what it measures.
func AwaitBucket(ctx context.Context, c *s3.Client, w *s3.BucketExistsWaiter, bucket string) error {
	start := time.Now()
	err := c.WaitForBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)})
	log.Printf("bucket ready after %v", time.Since(start))
	start = time.Now()
	err = w.Wait(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)})
	log.Printf("bucket ready after %v", time.Since(start))
	return err
}

// Open gets an object handle lazily: GetObject sends no request.
func Open(ctx context.Context, c *minio.Client, bucket, name string) (*minio.Object, error) {
	start := time.Now()
	obj, err := c.GetObject(ctx, bucket, name, minio.GetObjectOptions{})
	log.Printf("open took %v", time.Since(start))
	return obj, err
}

// Build builds a v1 request without sending it.
func Build(c *sqs.SQS, body string) error {
	start := time.Now()
	_, err := c.SendMessageRequest(&sqs.SendMessageInput{MessageBody: &body})
	log.Printf("build took %v", time.Since(start))
	return err
}

// Archive puts an object beside other work (a transform): the retries'
// pauses are a tail of a figure that measures more.
func Archive(ctx context.Context, c *s3.Client, bucket, key string, data []byte) error {
	start := time.Now()
	compressed := compress(data)
	_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	log.Printf("archive of %d bytes took %v", len(compressed), time.Since(start))
	return err
}

func compress(b []byte) []byte { return bytes.Repeat(b, 1) }

// Deadline bounds the call's attempts and pauses together: a deadline over
// a retrying call is the retries' budget.
func Deadline(ctx context.Context, c *s3.Client, bucket, key string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	return err
}
