writes_per_second = 10
reads_per_second  = 100000
