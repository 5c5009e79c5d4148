// The proxy's core — toxics, events, statistics, errors — is part of the proxy's API.
@_exported public import LowbandProxyCore
