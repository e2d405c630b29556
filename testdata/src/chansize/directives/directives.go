package directives

type item [4096]byte

//queuecheck:ignore chansize drained by a dedicated core; measured in BENCH-12
var silencedAbove = make(chan item, 1000)

var silencedOnLine = make(chan item, 1000) //queuecheck:ignore chansize sized for the replay burst

// want +2 `//queuecheck:ignore chansize needs a reason after the check name`
//
//queuecheck:ignore chansize
var noReason = make(chan item, 1000) // want `channel buffer of 1000 items of 4 KiB`

//queuecheck:ignore chansize nothing to silence here // want `//queuecheck:ignore chansize silences nothing here; remove it`
var fine = make(chan item, 10)

//queuecheck:ignore chansiz typo in the check name // want `//queuecheck:ignore names unknown check chansiz`
var typo = make(chan item, 10)

//queuecheck:ignore retrysend another check's directive is that check's business
var other = make(chan item, 10)

// documented is fine; the directive below its doc comment is stale.
//
//queuecheck:ignore chansize stale after the buffer shrank // want `//queuecheck:ignore chansize silences nothing here; remove it`
var documented = make(chan item, 10)

//queuecheck:ignore waittimng waittiming answers for its own misspellings
var notMine = make(chan item, 10)
