// The client engine is built here.
