package directiveeof

var z = make(chan [4096]byte, 10)

//queuecheck:ignore chansize nothing here // want `//queuecheck:ignore chansize silences nothing here; remove it`
