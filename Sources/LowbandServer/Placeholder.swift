// The in-process messenger server is built here.
