import type { CompanyRegistry, LookupKey } from './port.ts';
import { getJson, isObject, str } from './http-json.ts';

/**
 * The EU's VAT number validation (VIES) REST service, `…/vies/rest-api/ms/SK/vat/{DIČ}`: whether
 * SK + DIČ is a valid VAT number today. Answers `isValid`, and `userError`, which tells a number
 * that is not valid (VALID/INVALID/INVALID_INPUT: an answer, `vat_registered: false`) from a
 * Slovak or EU service that did not answer (MS_UNAVAILABLE, TIMEOUT, SERVICE_UNAVAILABLE,
 * *_MAX_CONCURRENT_REQ, …: the source is unavailable, and the lookup goes on without it).
 */
interface ViesOptions {
  baseUrl: string;
  fetch?: typeof fetch;
}

/** userError values that are an answer about the number, not a failure to answer. */
const ANSWERS = new Set(['VALID', 'INVALID', 'INVALID_INPUT']);

export function viesRegistry(options: ViesOptions): CompanyRegistry {
  const fetcher = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    source: 'vies',
    needsDic: true,
    async find(key: LookupKey, signal) {
      if (key.dic === null || !/^\d{10}$/.test(key.dic)) return null;
      const answer = await getJson(fetcher, `${base}/ms/SK/vat/${key.dic}`, signal);
      if (answer.status === 'not_found' || !isObject(answer.body)) throw new Error('no VAT check answer');
      const { isValid } = answer.body;
      const userError = str(answer.body.userError);
      if (isValid === true) return { vat_registered: true };
      if (isValid === false && (userError === null || ANSWERS.has(userError))) return { vat_registered: false };
      throw new Error(`VIES could not check the number (${userError ?? 'no userError'})`);
    },
  };
}
