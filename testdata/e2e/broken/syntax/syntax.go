package syntax

func f() {
	return (
}
