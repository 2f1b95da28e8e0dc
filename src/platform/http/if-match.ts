import { PlatformError } from './errors.ts';

const IF_MATCH = /^(?:W\/)?"(\d{1,15})"$|^(\d{1,15})$/;

/**
 * The stream version a client sends back: `"3"`, `W/"3"` or a bare `3`. Absent → undefined;
 * anything else (lists, `*`, garbage) is a 400 rather than a silently unconditional write.
 */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header === '') return undefined;
  const m = IF_MATCH.exec(header.trim());
  const digits = m?.[1] ?? m?.[2];
  if (digits === undefined) {
    throw new PlatformError('invalid_if_match', 400, 'If-Match must be a resource version such as "3"');
  }
  return Number(digits);
}
