// Package slog is a test stub with part of the API of golang.org/x/exp/slog.
package slog

func Info(msg string, args ...any)  {}
func Debug(msg string, args ...any) {}
