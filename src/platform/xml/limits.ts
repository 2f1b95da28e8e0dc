// Bounds for untrusted XML. A real Peppol invoice with an embedded PDF is a few MB; nesting in UBL is < 20.
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
export const MAX_DEPTH = 64;
/**
 * Elements per document. Validation costs about 0.1-0.2 ms of CPU per element (SaxonJS interprets the
 * rules), so this keeps any document to a few seconds. The native API's hard cap of 1,000 lines
 * builds at most ~20,000 elements (about 20 per line); the 200-line soft cap of Peppol receivers
 * leaves 120 elements a line.
 */
export const MAX_ELEMENTS = 25_000;
/**
 * Attributes per document: UBL carries about one per two or three elements (currencyID, unitCode,
 * schemeID); 200,000 undeclared attributes on one element once overflowed the stack with XSD errors.
 */
export const MAX_ATTRIBUTES = 50_000;
/**
 * Namespace declarations per document: UBL declares about ten. SaxonJS's parser pays for every
 * declaration in scope on every element (100,000 on the root took over a minute), so 500 keeps that
 * under a second at the element bound.
 */
export const MAX_NAMESPACE_DECLARATIONS = 500;
/**
 * UTF-8 bytes of one run of character data (text node, attribute value, comment): libxml2's own
 * XML_MAX_TEXT_LENGTH, checked before parsing so a longer one is refused at once rather than copied
 * into the parser first. An embedded PDF of 7 MB (base64: 9.3 MB) still fits.
 */
export const MAX_TEXT_RUN_BYTES = 10_000_000;
