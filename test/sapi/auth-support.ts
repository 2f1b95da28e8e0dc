import type { Clock } from '../../src/platform/ports/clock.ts';
import type { TestService } from '../support/service.ts';

/** A clock that tests move forward: the real time plus an offset. */
/** Real time plus an offset; `stopAt` holds it at one instant (for boundaries a busy machine would race), `resume` lets it run again. */
export function movableClock(): Clock & { advance(seconds: number): void; stopAt(at: Date): void; resume(): void } {
  let offsetMs = 0;
  let stoppedAt: number | undefined;
  return {
    now: () => new Date(stoppedAt ?? Date.now() + offsetMs),
    advance(seconds) {
      if (stoppedAt !== undefined) stoppedAt += seconds * 1000;
      else offsetMs += seconds * 1000;
    },
    stopAt(at) {
      stoppedAt = at.getTime();
    },
    resume() {
      stoppedAt = undefined;
    },
  };
}

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

/** A request under /sapi with a JSON body (or text as given) and extra headers. */
export async function sapiFetch(svc: TestService, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${svc.root}/sapi${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** POST /sapi/auth/token with a demo company's credentials (overridable). */
export function requestToken(svc: TestService, company = 0, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Answer> {
  const credentials = svc.demo.companies[company]?.sapi;
  if (!credentials) throw new Error(`no demo company ${company}`);
  return sapiFetch(svc, 'POST', '/auth/token', { client_id: credentials.client_id, client_secret: credentials.client_secret, grant_type: 'client_credentials', ...overrides }, headers);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The claims of a JWT, unverified (the test only reads what it was given). */
export function claimsOf(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
