module example.com/odd

go 1.26
