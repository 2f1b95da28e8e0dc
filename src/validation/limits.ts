// Bounds for untrusted XML. A real Peppol invoice with an embedded PDF is a few MB; nesting in UBL is < 20.
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
export const MAX_DEPTH = 64;
