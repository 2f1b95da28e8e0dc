// The XML module: the only place the service's code touches an XML library (eslint.config.js forbids
// them everywhere else). Parsing goes through ./parse.ts (untrusted input: parseUntrusted; shipped
// artifacts and self-written documents: parseTrusted), XSD validation through ./xsd.ts, writing
// through ./write.ts. Why one module: see README.md next to this file.
export { parseUntrusted, parseTrusted, nestsAtLeast, hasDoctype, countStartTags, countNamespaceDeclarations, longestTextRun, type ParsedXml, type SafeParseResult } from './parse.ts';
export { allAt, firstAt } from './xpath.ts';
export { verifyEnvelopedSignature, type EnvelopedSignatureCheck, type SignedRoot } from './enveloped-signature.ts';
export { MAX_ATTRIBUTES, MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_ELEMENTS, MAX_NAMESPACE_DECLARATIONS, MAX_TEXT_RUN_BYTES } from './limits.ts';
// The tree of a parsed document. Node classes are values (for instanceof); XmlDocument is a type only,
// so nobody outside this module can call XmlDocument.fromString on something untrusted.
export { XmlElement, XmlText, XmlCData } from 'libxml2-wasm';
export type { XmlDocument, XmlNode, XmlTreeNode, XmlAttribute, NamespaceMap } from 'libxml2-wasm';
