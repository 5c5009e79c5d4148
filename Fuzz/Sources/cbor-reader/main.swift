import FuzzSupport

FuzzDriver.run { data, size in fuzz(data, size) }
