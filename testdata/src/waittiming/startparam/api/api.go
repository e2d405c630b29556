// Package api is a family of request handlers that share one signature:
// each is given the time its request arrived, and most of them time the
// request from it.
package api

import (
	"io"
	"log"
	"os"
	"time"
)

func QueryHandler(startTime time.Time, w io.Writer) error {
	data, err := os.ReadFile("query.json")
	if err == nil {
		_, err = w.Write(data)
	}
	log.Printf("query took %v", time.Since(startTime))
	return err
}

func LabelsHandler(startTime time.Time, w io.Writer) error {
	data, err := os.ReadFile("labels.json")
	if err == nil {
		_, err = w.Write(data)
	}
	log.Printf("labels took %v", time.Since(startTime))
	return err
}

// MetadataHandler shares the signature and never reads startTime: a start
// handed to it measures nothing.
func MetadataHandler(startTime time.Time, w io.Writer) error {
	data, err := os.ReadFile("metadata.json")
	if err == nil {
		_, err = w.Write(data)
	}
	return err
}
