// Package sqs is a stub of the AWS SDK for Go v1's SQS client, whose
// requests retry by default (the DefaultRetryer).
package sqs

import (
	"context"

	"github.com/aws/aws-sdk-go/aws/client"
)

type SQS struct{ *client.Client }

type SendMessageInput struct{ QueueUrl, MessageBody *string }
type SendMessageOutput struct{ MessageId *string }

func (c *SQS) SendMessageWithContext(ctx context.Context, in *SendMessageInput) (*SendMessageOutput, error) {
	return &SendMessageOutput{}, nil
}

// SendMessageRequest builds the request without sending it.
func (c *SQS) SendMessageRequest(in *SendMessageInput) (*SendMessageOutput, error) {
	return &SendMessageOutput{}, nil
}

type ReceiveMessageInput struct{ WaitTimeSeconds *int64 }
type ReceiveMessageOutput struct{ Messages []string }

// ReceiveMessageWithContext long-polls for up to WaitTimeSeconds.
func (c *SQS) ReceiveMessageWithContext(ctx context.Context, in *ReceiveMessageInput) (*ReceiveMessageOutput, error) {
	return &ReceiveMessageOutput{}, nil
}

type GetQueueUrlInput struct{ QueueName *string }

// WaitUntilQueueExistsWithContext polls until the queue exists.
func (c *SQS) WaitUntilQueueExistsWithContext(ctx context.Context, in *GetQueueUrlInput) error {
	return nil
}
