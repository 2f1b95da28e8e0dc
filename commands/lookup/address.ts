/**
 * How a Slovak register's address parts become the party block's lines. Registers give the street,
 * the descriptive (súpisné) and orientation (orientačné) numbers and the municipality apart; an
 * invoice writes "Hlavná 1234/12" or, in a village without streets, "Malá Ida 123".
 */
export function streetLine(parts: { street?: string | null; regNumber?: number | string | null; buildingNumber?: string | null; municipality?: string | null }): string | null {
  const clean = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v).trim());
  const descriptive = clean(parts.regNumber) === '0' ? '' : clean(parts.regNumber);
  const orientation = clean(parts.buildingNumber);
  const number = descriptive && orientation && descriptive !== orientation ? `${descriptive}/${orientation}` : orientation || descriptive;
  const street = clean(parts.street) || (number ? clean(parts.municipality) : '');
  const line = [street, number].filter(Boolean).join(' ');
  return line || null;
}

/** A Slovak postal code as the party block writes it (NNN NN); anything else as given, or null. */
export function postalCode(value: string | null | undefined): string | null {
  const compact = value?.replace(/\s+/g, '') ?? '';
  if (/^\d{5}$/.test(compact)) return `${compact.slice(0, 3)} ${compact.slice(3)}`;
  return value?.trim() || null;
}

/**
 * Countries by the ISO 3166-1 numeric code the registers use (RPO's code list CL000086): Slovakia
 * and the countries Slovak companies most often have a seat in. Another code is null (unknown).
 */
const ALPHA2: Record<string, string> = {
  '703': 'SK', '203': 'CZ', '040': 'AT', '348': 'HU', '616': 'PL', '804': 'UA', '276': 'DE', '380': 'IT', '250': 'FR', '528': 'NL',
  '056': 'BE', '442': 'LU', '756': 'CH', '826': 'GB', '840': 'US', '196': 'CY', '705': 'SI', '191': 'HR', '642': 'RO', '100': 'BG',
};

export function countryAlpha2(numeric: string | number | null | undefined): string | null {
  if (numeric === null || numeric === undefined || numeric === '') return null;
  return ALPHA2[String(numeric).padStart(3, '0')] ?? null;
}
