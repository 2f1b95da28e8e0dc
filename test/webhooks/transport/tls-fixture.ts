// A self-signed certificate for hooks.example.test (valid 2000 to 2126, so no test clock falls
// outside it), made for these tests only with openssl req -new (EC P-256) and openssl ca -selfsign
// -startdate 20000101000000Z -enddate 21261231000000Z (basicConstraints CA:TRUE, SAN DNS:hooks.example.test).
export const TEST_TLS_NAME = 'hooks.example.test';

export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBfDCCASKgAwIBAgIBATAKBggqhkjOPQQDAjAdMRswGQYDVQQDDBJob29rcy5l
eGFtcGxlLnRlc3QwIBcNMDAwMTAxMDAwMDAwWhgPMjEyNjEyMzEwMDAwMDBaMB0x
GzAZBgNVBAMMEmhvb2tzLmV4YW1wbGUudGVzdDBZMBMGByqGSM49AgEGCCqGSM49
AwEHA0IABCTIc6nZLt5lAhS5sDhdvpCm2ZBpSL4bXPw0RbA8lCux9Z49VFjRy+rp
gdykC8VPfe8Wm+MK8eSiUZbeApWGtlWjUTBPMA8GA1UdEwEB/wQFMAMBAf8wHQYD
VR0RBBYwFIISaG9va3MuZXhhbXBsZS50ZXN0MB0GA1UdDgQWBBRytPgjTiQ4gjZn
WlWASY2aFs+6LDAKBggqhkjOPQQDAgNIADBFAiEAupxcf677w4XMJysKYuYGDaos
fCBHpDefrLPoFnSvlzcCIBxxcXTlfitL/pMuiVvTPgD2B3MF0LkrHMq/t5I7FfuB
-----END CERTIFICATE-----
`;

export const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgLyfDHgumC7lPn/CK
sbD6UOP3NOqvPlTt7Tsc40l9cMahRANCAAQkyHOp2S7eZQIUubA4Xb6QptmQaUi+
G1z8NEWwPJQrsfWePVRY0cvq6YHcpAvFT33vFpvjCvHkolGW3gKVhrZV
-----END PRIVATE KEY-----
`;
