// Package sdkretry times calls of SDK clients that retry every request by
// default (knowledge lists retrying-client-trees and retrying-calls).
package sdkretry

import (
	"bytes"
	"context"
	"log"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go/aws/credentials"
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
func AwaitBucket(ctx context.Context, w *s3.BucketExistsWaiter, bucket string) error {
	start := time.Now()
	err := w.Wait(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)})
	log.Printf("bucket ready after %v", time.Since(start))
	return err
}

// Create creates a bucket and waits until it exists: the waiter, of the
// client's own package, is work of its own beside the retried request.
func Create(ctx context.Context, c *s3.Client, bucket string) error {
	start := time.Now()
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
		return err
	}
	err := s3.NewBucketExistsWaiter(c).Wait(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)})
	log.Printf("bucket created in %v", time.Since(start))
	return err
}

// AwaitQueue polls with a v1 service client's waiter.
func AwaitQueue(ctx context.Context, c *sqs.SQS, name string) error {
	start := time.Now()
	err := c.WaitUntilQueueExistsWithContext(ctx, &sqs.GetQueueUrlInput{QueueName: &name})
	log.Printf("queue ready after %v", time.Since(start))
	return err
}

// Poll times a long poll: its time is waiting for messages, not retries.
func Poll(ctx context.Context, c *sqs.SQS) (int, error) {
	wait := int64(20)
	start := time.Now()
	out, err := c.ReceiveMessageWithContext(ctx, &sqs.ReceiveMessageInput{WaitTimeSeconds: &wait})
	log.Printf("receive took %v", time.Since(start))
	if err != nil {
		return 0, err
	}
	return len(out.Messages), nil
}

// Credentials times a credentials lookup, mostly a cache hit: not a
// service client's request.
func Credentials(ctx context.Context, c *credentials.Credentials) error {
	start := time.Now()
	_, err := c.GetWithContext(ctx)
	log.Printf("credentials took %v", time.Since(start))
	return err
}

// Provision times a long-running operation, started and then polled until
// done: the SDK's poller is work of its own beside the retried request.
func Provision(ctx context.Context, c *armcompute.VirtualMachinesClient, group, name string) error {
	start := time.Now()
	poller, err := c.BeginCreateOrUpdate(ctx, group, name, armcompute.VirtualMachine{})
	if err != nil {
		return err
	}
	_, err = poller.PollUntilDone(ctx, nil)
	log.Printf("provisioning took %v", time.Since(start))
	return err
}

// Lookup times one Azure request.
func Lookup(ctx context.Context, c *armcompute.VirtualMachinesClient, group, name string) error { // want Lookup:"retries between the backoff of its SDK's default retries"
	start := time.Now()
	_, err := c.Get(ctx, group, name)
	log.Printf("get took %v", time.Since(start)) // want `the duration since start spans \(\*armcompute\.VirtualMachinesClient\)\.Get, whose attempts are separated by the backoff of its SDK's default retries`
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
