module example.com/fakesvc

go 1.22
