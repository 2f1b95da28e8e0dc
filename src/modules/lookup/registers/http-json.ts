/**
 * One GET of a register's JSON API: bounded in size, cancelled by the caller's signal (the
 * lookup's per-source timeout). 404 is an answer (the register does not have it); any other
 * non-2xx, an unreadable body or a dropped connection is thrown.
 */
import { readLimited } from '../../../platform/http-client/read-limited.ts';

/** A register's answer is a few KB; a broad RPO name search can list hundreds of entities with their history. */
const MAX_REGISTER_RESPONSE_BYTES = 8 * 1024 * 1024;

type JsonAnswer = { status: 'ok'; body: unknown } | { status: 'not_found' };

export async function getJson(fetcher: typeof fetch, url: string, signal: AbortSignal): Promise<JsonAnswer> {
  const response = await fetcher(url, { headers: { accept: 'application/json' }, signal, redirect: 'error' });
  if (response.status === 404) {
    await response.body?.cancel();
    return { status: 'not_found' };
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const text = new TextDecoder('utf-8', { fatal: true }).decode(await readLimited(response, MAX_REGISTER_RESPONSE_BYTES, () => new Error(`the answer is larger than ${MAX_REGISTER_RESPONSE_BYTES} bytes`)));
  try {
    return { status: 'ok', body: JSON.parse(text) as unknown };
  } catch {
    throw new Error('the answer is not JSON');
  }
}


/* Reading untyped JSON without trusting it. */
export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);
