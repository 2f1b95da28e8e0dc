/**
 * Turns untrusted XML bytes into text before anything looks at them, so every later check (DOCTYPE,
 * element count) and the parser see the same characters. The encoding is detected as the XML 1.0
 * spec's Appendix F says: a byte order mark, else the first bytes of `<?xml` in UTF-16 or UCS-4,
 * else an ASCII-compatible encoding named by the declaration (UTF-8 when none). Decoding is the
 * platform's TextDecoder, strict: bytes that are not valid in their encoding are refused, never
 * replaced.
 *
 * UTF-8, UTF-16 (either byte order, with or without BOM, as XML 1.0 requires every processor to
 * read) and the single-byte encodings TextDecoder knows are read. UTF-32/UCS-4, EBCDIC and unknown
 * names are refused (TextDecoder has no decoder for them, and Peppol documents are UTF-8 anyway).
 */

type Decoded = { ok: true; text: string } | { ok: false; rule: 'XML-ENCODING-UNSUPPORTED' | 'XML-MALFORMED'; message: string };

type Detected = { encoding: 'utf-8' | 'utf-16le' | 'utf-16be'; bom: number } | { declared: true } | { unsupported: string };

const SEND_UTF8 = 'send the document as UTF-8 (Peppol BIS Billing 3.0 documents are UTF-8)';

function startsWith(bytes: Uint8Array, ...signature: number[]): boolean {
  return signature.every((b, i) => bytes[i] === b);
}

/** Appendix F: byte order marks first (UCS-4 before UTF-16, whose marks are prefixes of them). */
function detect(b: Uint8Array): Detected {
  if (startsWith(b, 0x00, 0x00, 0xfe, 0xff) || startsWith(b, 0x00, 0x00, 0x00, 0x3c)) return { unsupported: 'UTF-32BE' };
  if (startsWith(b, 0xff, 0xfe, 0x00, 0x00) || startsWith(b, 0x3c, 0x00, 0x00, 0x00)) return { unsupported: 'UTF-32LE' };
  if (startsWith(b, 0x00, 0x00, 0xff, 0xfe) || startsWith(b, 0xfe, 0xff, 0x00, 0x00) || startsWith(b, 0x00, 0x00, 0x3c, 0x00) || startsWith(b, 0x00, 0x3c, 0x00, 0x00)) {
    return { unsupported: 'UCS-4 in an unusual byte order' };
  }
  if (startsWith(b, 0xfe, 0xff)) return { encoding: 'utf-16be', bom: 2 };
  if (startsWith(b, 0xff, 0xfe)) return { encoding: 'utf-16le', bom: 2 };
  if (startsWith(b, 0xef, 0xbb, 0xbf)) return { encoding: 'utf-8', bom: 3 };
  // `<` then any ASCII character in UTF-16 (Appendix F names `<?`; a document without a declaration
  // starts with `<` and a name just the same)
  if (startsWith(b, 0x00, 0x3c)) return { encoding: 'utf-16be', bom: 0 };
  if (startsWith(b, 0x3c, 0x00)) return { encoding: 'utf-16le', bom: 0 };
  if (startsWith(b, 0x4c, 0x6f, 0xa7, 0x94)) return { unsupported: 'EBCDIC' };
  return { declared: true };
}

/** The encoding name of an XML declaration in ASCII-compatible bytes, or null when there is none. */
function declaredEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1');
  return /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(head)?.[1] ?? null;
}

function decode(bytes: Uint8Array, encoding: string, name: string): Decoded {
  try {
    return { ok: true, text: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { ok: false, rule: 'XML-MALFORMED', message: `Not well-formed XML: the bytes are not valid ${name}.` };
  }
}

/** Decodes untrusted XML bytes; a string is already text (a leading BOM is dropped). */
export function decodeXmlBytes(input: string | Uint8Array): Decoded {
  if (typeof input === 'string') return { ok: true, text: input.replace(/^\uFEFF/, '') };
  const found = detect(input);
  if ('unsupported' in found) {
    return { ok: false, rule: 'XML-ENCODING-UNSUPPORTED', message: `The document is encoded in ${found.unsupported}, which is not supported: ${SEND_UTF8}.` };
  }
  if ('encoding' in found) return decode(input.subarray(found.bom), found.encoding, found.encoding.toUpperCase());
  const name = declaredEncoding(input);
  if (name === null) return decode(input, 'utf-8', 'UTF-8');
  let encoding: string;
  try {
    encoding = new TextDecoder(name).encoding;
  } catch {
    return { ok: false, rule: 'XML-ENCODING-UNSUPPORTED', message: `The declared encoding "${name}" is not supported: ${SEND_UTF8}.` };
  }
  // A UTF-16 name on ASCII-compatible bytes is a wrong label; like libxml2, read the bytes as UTF-8.
  return decode(input, encoding.startsWith('utf-16') ? 'utf-8' : encoding, encoding.startsWith('utf-16') ? 'UTF-8' : name);
}

/**
 * Once decoded, the text is Unicode: its declaration must say so, so that nothing that reads the
 * text later (libxml2, SaxonJS) decodes it a second time by the declared encoding.
 */
export function asUtf8Declaration(text: string): string {
  return text.replace(/^(<\?xml\s[^>]*?encoding\s*=\s*)(["'])[A-Za-z][A-Za-z0-9._-]*\2/, '$1$2UTF-8$2');
}
