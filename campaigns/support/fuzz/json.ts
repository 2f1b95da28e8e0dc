/** JSON text that JSON.stringify cannot produce (1e309, 10,000 nested arrays), placed as-is. */
export class RawJson {
  constructor(readonly text: string, readonly label: string) {}
}

/**
 * Serialises a body the way a hostile client would send it: RawJson as written, own keys named
 * `__proto__` included, strings escaped by JSON.stringify (a lone surrogate becomes `\ud800`).
 */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}

/** A short, readable rendering for a failure report: long strings and raw JSON by their size. */
export function preview(value: unknown, limit = 240): string {
  const shown = (v: unknown): unknown => {
    if (v instanceof RawJson) return `<raw ${v.label}>`;
    if (typeof v === 'string') return v.length > 60 ? `${v.slice(0, 20)}…<${v.length} chars>` : v;
    if (Array.isArray(v)) return v.map(shown);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).map((k) => [k, shown((v as Record<string, unknown>)[k])]));
    return v;
  };
  const text = JSON.stringify(shown(value)) ?? 'undefined';
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** Sets an own, enumerable property even when it is named `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
