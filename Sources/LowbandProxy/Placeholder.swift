// The shaping proxy and its control API are built here.
