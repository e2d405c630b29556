package flags

type item [4096]byte

// With -chansize.maxbytes=1TiB and -chansize.max=1048576 only the count limit fires.
var memoryOnly = make(chan item, 100000)

var countOnly = make(chan int8, 2000000) // want `channel buffer of 2000000 items of 1 B`
