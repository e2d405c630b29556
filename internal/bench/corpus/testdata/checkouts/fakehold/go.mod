module example.com/fakehold

go 1.22
