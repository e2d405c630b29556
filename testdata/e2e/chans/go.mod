module example.com/chans

go 1.26
