/**
 * The static routing table (PEPPOL_STATIC_ENDPOINTS): a JSON file
 * `{"<scheme>:<id>": {"url": "…", "certificate": "<PEM text or a file path>"}}`, for tests and
 * private links, consulted before the SML. Its entries are the operator's own configuration: their
 * URLs are used as written (loopback and plain http included); their certificates are still checked
 * as Peppol Access Point certificates at each use. Read once at start-up: a bad file stops the
 * service rather than failing deliveries one by one.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseParticipantId } from '../identifiers.ts';
import { participantValue } from './participant-id.ts';

export interface StaticEndpoint {
  url: string;
  certificate: X509Certificate;
}

/** Keyed by the normalised participant id (`0088:123abc`). */
export type StaticEndpoints = ReadonlyMap<string, StaticEndpoint>;

export const NO_STATIC_ENDPOINTS: StaticEndpoints = new Map();

export function loadStaticEndpoints(file: string): StaticEndpoints {
  const where = `PEPPOL_STATIC_ENDPOINTS (${file})`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${where} cannot be read as JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return parseStaticEndpoints(json, where, path.dirname(path.resolve(file)));
}

/** `baseDir`: where a certificate given as a relative path is looked for (the JSON file's folder). */
export function parseStaticEndpoints(json: unknown, where: string, baseDir: string): StaticEndpoints {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${where} must be a JSON object keyed by participant id`);
  const table = new Map<string, StaticEndpoint>();
  for (const [key, entry] of Object.entries(json)) {
    const at = `${where}, entry "${key}"`;
    let id: string;
    try {
      id = participantValue(parseParticipantId(key));
    } catch (error) {
      throw new Error(`${at}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (entry === null || typeof entry !== 'object') throw new Error(`${at} must be {"url": …, "certificate": …}`);
    const { url, certificate } = entry as { url?: unknown; certificate?: unknown };
    if (typeof url !== 'string' || !/^https?:$/.test(safeProtocol(url))) throw new Error(`${at}: "url" must be an http or https URL`);
    if (typeof certificate !== 'string' || certificate.trim() === '') throw new Error(`${at}: "certificate" must be PEM text or a file path`);
    table.set(id, { url, certificate: readCertificate(certificate, baseDir, at) });
  }
  return table;
}

function readCertificate(value: string, baseDir: string, at: string): X509Certificate {
  let pem = value;
  if (!value.includes('-----BEGIN')) {
    try {
      pem = readFileSync(path.resolve(baseDir, value), 'utf8');
    } catch (error) {
      throw new Error(`${at}: the certificate file cannot be read (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
  }
  try {
    return new X509Certificate(pem);
  } catch (error) {
    throw new Error(`${at}: the certificate is not a PEM X.509 certificate`, { cause: error });
  }
}

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}
