/**
 * Whether an SMP Redirect's CertificateUID names a certificate's subject. SMPs write the subject
 * as an RFC 2253 string (`CN=SMP x,O=y,C=BE`), Node gives it one attribute a line in the
 * certificate's order; both are compared as sets of `type=value`, types case-insensitively.
 */
export function sameSubject(certificateUid: string, nodeSubject: string): boolean {
  const a = attributes(splitRfc2253(certificateUid));
  const b = attributes(nodeSubject.split('\n'));
  return a.length > 0 && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Splits on commas that are not escaped with a backslash. */
function splitRfc2253(dn: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < dn.length; i++) {
    const c = dn.charAt(i);
    if (c === '\\' && i + 1 < dn.length) {
      current += dn.charAt(++i);
      continue;
    }
    if (c === ',' || c === ';') {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts;
}

function attributes(parts: string[]): string[] {
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? p : `${p.slice(0, eq).trim().toUpperCase()}=${p.slice(eq + 1).trim()}`;
    })
    .sort();
}
