import { Type } from '@sinclair/typebox';

/** Years every store and document format of the service can hold (Postgres has no year 0). */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Strictly YYYY-MM-DD, a real day of the (proleptic Gregorian) calendar, year 0001-9999. */
export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return year >= MIN_YEAR && year <= MAX_YEAR && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/**
 * A calendar date. The `date` format itself is the strict one above (the platform's ajv registers
 * it), so every `format: 'date'` in the API refuses what the database cannot hold, like 0000-01-01.
 */
export const IsoDate = (options: { description?: string } = {}) =>
  Type.String({ format: 'date', description: [options.description, `YYYY-MM-DD, year ${String(MIN_YEAR).padStart(4, '0')}-${MAX_YEAR}`].filter(Boolean).join('; ') });
