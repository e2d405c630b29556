package constdecl

var fromGenerated = make(chan job, generatedBacklog) // want `channel buffer of 400000 items of 16 B \(up to 6.1 MiB\)`
