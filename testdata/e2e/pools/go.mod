module example.com/pools

go 1.26
