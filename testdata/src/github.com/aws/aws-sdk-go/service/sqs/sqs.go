// Package sqs is a stub of the AWS SDK for Go v1's SQS client, whose
// requests retry by default (the DefaultRetryer).
package sqs

import "context"

type SQS struct{}

type SendMessageInput struct{ QueueUrl, MessageBody *string }
type SendMessageOutput struct{ MessageId *string }

func (c *SQS) SendMessageWithContext(ctx context.Context, in *SendMessageInput) (*SendMessageOutput, error) {
	return &SendMessageOutput{}, nil
}

// SendMessageRequest builds the request without sending it.
func (c *SQS) SendMessageRequest(in *SendMessageInput) (*SendMessageOutput, error) {
	return &SendMessageOutput{}, nil
}
