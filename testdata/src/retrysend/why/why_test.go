// The rule test-file skips this file.
package why
