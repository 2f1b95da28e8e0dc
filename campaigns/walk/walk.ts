import { randomBytes } from 'node:crypto';
import type { Route } from '../../src/platform/http/index.ts';
import type { TestService } from '../../test/support/service.ts';
import { registeredRoutes, type Door } from '../support/fuzz/drive.ts';
import { send, type Reply } from '../support/http.ts';
import type { World } from '../support/world.ts';

/**
 * Rule 9 as an attacker tries it: organisation B, with each of its credentials (API key, a user's
 * JWT, a SAPI token), on every route the app registers, aimed at organisation A's resources. Each
 * call that names something of A's is sent a second time with those ids forged (same shape,
 * nobody's): A's resource must look exactly like no resource, a 404 (under /sapi
 * SAPI-DOC-NOT-FOUND, or SAPI-AUTH-PARTICIPANT for A's participant), or the same refusal a
 * nonexistent id gets (a credential the route does not take at all). No answer to B may carry
 * any of A's ids, numbers or VAT IDs beyond what B itself sent.
 */

export type Credential = 'key' | 'jwt' | 'sapi';
const CREDENTIALS: Credential[] = ['key', 'jwt', 'sapi'];

/** Routes whose path or body names public data, not a resource of an organisation (docs/lookup.md, the Peppol directory). */
export const PUBLIC_DATA: Record<string, string> = {
  lookupCompany: 'an IČO in the public company registers',
  searchCompanies: 'a name in the public company registers',
  peppolCheck: 'a participant in the public Peppol directory',
};

export interface Call {
  route: string;
  door: Door;
  credential: Credential;
  /** which of A's ids the call names (for the report) */
  aims: string;
  method: string;
  path: string;
  status: number;
  code: string;
  /** the same call with A's ids forged */
  control?: { status: number; code: string };
  verdict: 'not found' | 'refused alike' | 'MISS' | 'open' | 'public data';
  leaked: string[];
}

export interface WalkResult {
  registered: number;
  walked: number;
  /** routes with nothing to aim at A, and no sample body: each fails the walk */
  unwalked: string[];
  calls: Call[];
}

const errorCode = (r: Reply): string => {
  const j = r.json as { detail?: { error?: unknown }; error?: { code?: unknown } | string } | undefined;
  if (j && typeof j === 'object') {
    if (j.detail && typeof j.detail === 'object' && typeof j.detail.error === 'string') return j.detail.error;
    if (j.error && typeof j.error === 'object' && typeof j.error.code === 'string') return j.error.code;
    if (typeof j.error === 'string') return j.error;
  }
  return '';
};

/** The same string with its last characters replaced: a uuid stays a uuid, a prefix stays, and it names nothing. */
function forgeOne(id: string): string {
  const tail = Math.min(8, id.length - 1);
  return id.slice(0, id.length - tail) + randomBytes(8).toString('hex').slice(0, tail);
}

/**
 * Bodies of the routes that take one, aimed at A where the body can name A's resources (a
 * customer, an invoice, a participant, a client): every body route needs one here, or the walk
 * fails until it is added.
 */
function sampleBodies(a: World, year: number): Record<string, unknown> {
  const customer = a.ids.customer_id?.[0];
  const sentInvoice = a.ids.invoice_id?.[2];
  const lines = [{ item_name: 'x', quantity: '1', unit_code: 'C62', unit_price: '1.00', vat_rate: '23' }];
  return {
    login: { email: a.user.email, password: 'Not-the-password1!' },
    loginTotp: { challenge_token: 'x'.repeat(20), code: '000000' },
    refreshTokens: { refresh_token: 'not-a-refresh-token' },
    logout: { refresh_token: 'not-a-refresh-token' },
    changePassword: { current_password: 'Not-the-password1!', new_password: 'Another-pass1!' },
    confirmTotp: { code: '000000' },
    disableTotp: { code: '000000' },
    createApiKey: { name: 'walk' },
    updateApiKey: { name: 'renamed' },
    createOAuthClient: { name: 'walk' },
    oauthToken: { grant_type: 'client_credentials', client_id: a.ids.client_id?.[0], client_secret: 'not-the-secret' },
    createCustomer: { name: 'Walk B s.r.o.', vat_id: 'SK2020273893', city: 'Nitra' },
    createOrganisationCustomer: { name: 'Walk B s.r.o.', vat_id: 'SK2020273893', city: 'Nitra' },
    createInvoice: { issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer, lines },
    createInvoiceUnscoped: { issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer, lines },
    replaceInvoice: { issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer, lines },
    markInvoiceSent: {},
    peppolCheck: { participant_id: a.participants[0] },
    createCreditNote: { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '1.00' }] },
    recordPayment: { document_id: sentInvoice, amount: '1.00', currency_code: 'EUR', paid_on: `${year}-03-20`, method: 'bank_transfer' },
    reversePayment: { reason: 'walk' },
    rejectInvoice: { reason: 'walk' },
    createWebhook: { url: 'http://127.0.0.1:9/hook' },
    createWorkspaceWebhook: { url: 'http://127.0.0.1:9/hook' },
    updateWebhook: { description: 'walked' },
    updateWebhookForWorkspace: { description: 'walked' },
    updateCompany: { contact_name: 'walked' },
    setSapiClientAllowlist: { cidrs: [] },
    sapiToken: { client_id: a.sapi.clientId, client_secret: 'not-the-secret', grant_type: 'client_credentials' },
    sapiRenew: { refresh_token: 'not-a-refresh-token' },
    sapiRevoke: { token: 'not-a-token' },
    sapiSendDocument: {
      metadata: {
        documentId: 'WALK-1', documentTypeId: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
        processId: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', senderParticipantId: a.participants[0], receiverParticipantId: a.participants[1], creationDateTime: `${year}-03-15T10:00:00Z`,
      },
      payload: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
      payloadFormat: 'XML',
    },
  };
}

const RAW_BODIES: Record<string, { type: string; text: string }> = {
  bulkImportInvoices: { type: 'text/csv', text: 'invoice_ref,issue_date,due_date,buyer_name,buyer_vat_id,item_name,quantity,unit_price,vat_rate\nA,2026-03-01,2026-03-15,B,SK2020273893,x,1,1.00,23\n' },
};

/** Every combination of path values worth a call: each of A's ids of one parameter in turn, and B's own company around A's ids. */
function pathCombos(route: Route, a: World, b: World): Record<string, string>[] {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  if (names.length === 0) return [{}];
  const first = Object.fromEntries(names.map((n) => [n, a.ids[n]?.[0] ?? '']));
  const combos: Record<string, string>[] = [first];
  for (const n of names) for (const id of (a.ids[n] ?? []).slice(1)) combos.push({ ...first, [n]: id });
  // B's own company with A's resource under it: the resource must still be A's alone
  if (names.includes('company_id') && names.length > 1) combos.push({ ...first, company_id: b.ids.company_id![0]! });
  if (names.includes('workspace_id') && names.length > 1 && b.ids.workspace_id) combos.push({ ...first, workspace_id: b.ids.workspace_id[0]! });
  return combos;
}

/**
 * `short`: one call per route, with the credential the route is meant for (the seeded version in
 * npm test); the campaign walks every id, every credential and B's own company around A's ids.
 */
export async function walkRoutes(svc: TestService, a: World, b: World, options: { short?: boolean } = {}): Promise<WalkResult> {
  const routes = registeredRoutes(svc);
  const bodies = sampleBodies(a, new Date().getUTCFullYear());
  const secrets = [...new Set(a.secrets)].filter((s) => s.length >= 6);
  const forged = new Map(secrets.map((s) => [s, forgeOne(s)]));
  const forge = (text: string) => {
    let out = text;
    for (const [s, f] of forged) out = out.split(s).join(f);
    return out;
  };
  const calls: Call[] = [];
  const unwalked: string[] = [];
  const walked = new Set<string>();

  for (const { route, door, label } of routes) {
    const missingId = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string).filter((n) => !a.ids[n]?.length);
    if (missingId.length > 0) unwalked.push(`${label}: no id of A for ${missingId.map((n) => `{${n}}`).join(', ')}`);
    const raw = RAW_BODIES[route.operationId];
    if (route.body && !(route.operationId in bodies)) unwalked.push(`${label}: no sample body`);
    if (route.rawBodyDoc && !raw) unwalked.push(`${label}: no sample raw body`);
    const body = raw ? raw.text : route.body ? JSON.stringify(bodies[route.operationId] ?? {}) : undefined;
    const contentType = raw ? raw.type : route.body ? 'application/json' : undefined;
    const meant: Credential = door === 'sapi' ? 'sapi' : route.auth === 'user' || route.auth === 'sign_in' ? 'jwt' : 'key';
    for (const params of options.short ? pathCombos(route, a, b).slice(0, 1) : pathCombos(route, a, b)) {
      const path = route.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(params[n] ?? ''));
      const query = route.operationId === 'searchCustomers' ? '?q=walk' : route.operationId === 'searchCompanies' ? '?q=Demo' : '';
      const base = door === 'native' ? svc.api : `${svc.root}/sapi`;
      for (const credential of options.short ? [meant] : CREDENTIALS) {
        // under /sapi the participant header is B's own, then A's on the document routes (the ones that read it: sapi-sk.md, Endpoints)
        const participants = credential === 'sapi' ? [b.sapi.participantId, ...(door === 'sapi' && route.path.startsWith('/document') ? [a.participants[0]!] : [])] : [undefined];
        for (const participant of participants) {
          const headers: Record<string, string> = {};
          if (credential === 'key') headers['x-api-key'] = b.apiKey;
          if (credential === 'jwt') headers.authorization = `Bearer ${b.jwt}`;
          if (credential === 'sapi') headers.authorization = `Bearer ${b.sapi.token}`;
          if (participant) headers['x-peppol-participant-id'] = participant;
          if (contentType) headers['content-type'] = contentType;
          if (route.method === 'PUT' || route.operationId === 'createCreditNote' || route.operationId === 'voidInvoice' || route.operationId === 'updateCompany') headers['if-match'] = '"0"';
          if (route.method === 'POST') headers['idempotency-key'] = `walk-${randomBytes(8).toString('hex')}`;
          const aimed = `${path}${query} ${body ?? ''} ${participant ?? ''}`;
          const aims = secrets.filter((s) => aimed.includes(s));
          const reply = await send({ method: route.method, url: `${base}${path}${query}`, headers, body });
          walked.add(label);
          const sentText = `${path}${query} ${body ?? ''} ${Object.values(headers).join(' ')}`;
          const publicData = route.operationId in PUBLIC_DATA;
          const leaked = publicData ? [] : secrets.filter((s) => reply.text.includes(s) && !sentText.includes(s));
          const call: Call = {
            route: label, door, credential, aims: aims.map((s) => Object.entries(a.ids).find(([, v]) => v.includes(s))?.[0] ?? 'participant/number').join(','),
            method: route.method, path: `${path}${query}`, status: reply.status, code: errorCode(reply), verdict: 'open', leaked,
          };
          if (publicData) call.verdict = 'public data';
          else if (aims.length > 0) {
            const expected = door === 'native' ? reply.status === 404 : ['SAPI-DOC-NOT-FOUND', 'SAPI-AUTH-PARTICIPANT'].includes(call.code);
            if (expected) call.verdict = 'not found';
            else {
              const control = await send({ method: route.method, url: `${base}${forge(path)}${query}`, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, k === 'idempotency-key' ? `${v}-c` : forge(v)])), body: body === undefined ? undefined : forge(body) });
              call.control = { status: control.status, code: errorCode(control) };
              call.verdict = reply.status >= 400 && reply.status < 500 && control.status === reply.status && call.control.code === call.code ? 'refused alike' : 'MISS';
            }
          }
          calls.push(call);
        }
      }
    }
  }
  return { registered: routes.length, walked: walked.size, unwalked, calls };
}

export const walkLine = (c: Call) =>
  `${c.verdict.padEnd(13)} ${c.credential.padEnd(4)} ${c.method} ${c.path} → ${c.status} ${c.code}${c.control ? ` (forged ids: ${c.control.status} ${c.control.code})` : ''}${c.leaked.length ? ` LEAKED ${c.leaked.join(', ')}` : ''}`;
