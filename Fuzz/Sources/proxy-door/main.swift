import FuzzSupport

FuzzDriver.run(fuzz)
