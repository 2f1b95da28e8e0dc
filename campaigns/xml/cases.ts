// The hostile documents of the xml campaign (issue 21, item 5). Each names the canary file and the
// canary HTTP server, so a parser that resolved anything external would be seen doing it.

export interface Canaries {
  /** absolute path of the canary file (a FIFO: any open for reading is seen) */
  file: string;
  /** base URL of the canary HTTP server, e.g. http://127.0.0.1:41234 */
  http: string;
}

export interface XmlCase {
  name: string;
  /** the document as bytes (what a byte-carrying entry point receives) */
  bytes: Uint8Array;
  /** the document as text (what a string-carrying entry point receives: SAPI JSON, the SBDH envelope, a TDD) */
  text: string;
}

const INVOICE = 'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';
const invoice = (body: string) => `<Invoice ${INVOICE}><cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID><cbc:ID>XML-1</cbc:ID>${body}</Invoice>`;
const utf8 = (text: string) => new TextEncoder().encode(text);
const same = (name: string, text: string): XmlCase => ({ name, text, bytes: utf8(text) });

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 + i * 2] = c & 0xff;
    out[3 + i * 2] = c >> 8;
  }
  return out;
}

/** UTF-7 of ASCII text: every character outside the direct set as a base64 run (RFC 2152). */
function utf7(text: string): string {
  const direct = /[A-Za-z0-9'(),\-./:? \n]/;
  let out = '';
  for (const ch of text) {
    if (direct.test(ch)) out += ch;
    else out += `+${Buffer.from([0, ch.charCodeAt(0)]).toString('base64').replace(/=+$/, '')}-`;
  }
  return out;
}

const BILLION_LAUGHS_DTD = [
  '<!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
].join('');
const billionLaughs = `<?xml version="1.0"?><!DOCTYPE Invoice [${BILLION_LAUGHS_DTD}]>${invoice('<cbc:Note>&lol9;</cbc:Note>')}`;

/** Every case, built for these canaries, at the issue's sizes (each is refused before it costs much). */
export function xmlCases(canaries: Canaries): XmlCase[] {
  const fileUrl = `file://${canaries.file}`;
  const depth = 100_000;
  const textBytes = 10 * 1024 * 1024;
  const quadratic = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY a "${'a'.repeat(50_000)}">]>${invoice(`<cbc:Note>${'&a;'.repeat(50_000)}</cbc:Note>`)}`;
  const utf16Declared = billionLaughs.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>');
  const utf7Text = `<?xml version="1.0" encoding="UTF-7"?>${utf7(`<!DOCTYPE Invoice [<!ENTITY x SYSTEM "${fileUrl}">]>${invoice('<cbc:Note>&x;</cbc:Note>')}`)}`;
  return [
    same('billion laughs', billionLaughs),
    same('quadratic blow-up', quadratic),
    same('external entity file://', `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "${fileUrl}">]>${invoice('<cbc:Note>&x;</cbc:Note>')}`),
    same('external entity http://', `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "${canaries.http}/entity">]>${invoice('<cbc:Note>&x;</cbc:Note>')}`),
    same('external DTD', `<?xml version="1.0"?><!DOCTYPE Invoice SYSTEM "${canaries.http}/external.dtd">${invoice('')}`),
    same('external DTD file://', `<?xml version="1.0"?><!DOCTYPE Invoice PUBLIC "-//X//Y" "${fileUrl}">${invoice('')}`),
    same('parameter entities', `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY % remote SYSTEM "${canaries.http}/parameter.dtd"><!ENTITY % local SYSTEM "${fileUrl}">%remote;%local;]>${invoice('')}`),
    same('XInclude', invoice(`<cbc:Note xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="${fileUrl}" parse="text"/><xi:include href="${canaries.http}/xinclude.xml"/></cbc:Note>`)),
    same('100,000-deep nesting', `<?xml version="1.0"?>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`),
    same('10 MB text node', invoice(`<cbc:Note>${'A'.repeat(textBytes)}</cbc:Note>`)),
    { name: 'declared UTF-16 (billion laughs)', text: utf16Declared, bytes: utf16le(utf16Declared) },
    same('declared UTF-7 (external entity)', utf7Text),
  ];
}
