import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CompanyFields } from '../../events/tenancy.ts';
import type { Position } from '../platform/eventstore/port.ts';
import {
  addUser,
  createOrganisation,
  createWorkspace,
  issueApiKey,
  issueSapiClient,
  registerCompany,
  systemMetadata,
} from '../modules/tenancy/index.ts';
import type { Core } from '../platform/core.ts';
import type { ProjectionRunner } from '../platform/readmodel/projection-runner.ts';
import { bicOf, randomSandboxIdentity } from './identifiers.ts';

/** A demo company as the credentials file shows it: its identifiers, not its profile (the file's shape is a contract). */
export interface DemoCompany extends Pick<CompanyFields, 'name' | 'vat_id' | 'ico' | 'dic' | 'peppol_id' | 'iban'> {
  id: string;
  sapi: { client_id: string; client_secret: string; participant_id: string };
}

/** The exact shape of DATA_DIR/demo-credentials.json: tests and newcomers rely on it. */
export interface DemoCredentials {
  base_url: string;
  sapi_url: string;
  organisation_id: string;
  workspace_id: string;
  plan: string;
  api_key: string;
  admin: { email: string; password: string };
  companies: DemoCompany[];
  second_organisation: { organisation_id: string; api_key: string; company_id: string };
}

const DEMO_PLAN = 'Team Business';
const metadata = systemMetadata('demo-bootstrap');

/** A password that meets the spec's policy: upper, lower, digit and special character. */
const demoPassword = () => `Demo-${randomBytes(9).toString('base64url')}7a!`;

/** What the demo writes with: the store, and the read models it waits for before it answers. */
type DemoDeps = Pick<Core, 'store' | 'ids' | 'clock'> & { projections: Pick<ProjectionRunner, 'shown'> };

/**
 * A sandbox company's profile: its seat (its invoices carry it as the seller's address, so they get
 * no SK-R-002..004 warning), its register entry and a contact, as a real company's invoices show them.
 */
type DemoProfile = Required<Pick<CompanyFields, 'street' | 'city' | 'postal_code' | 'register_entry' | 'contact_name' | 'contact_email' | 'contact_phone'>>;

async function sandboxCompany(
  services: DemoDeps, organisationId: string, workspaceId: string, name: string, profile: DemoProfile, positions: (Position | null)[],
): Promise<DemoCompany> {
  const identity = randomSandboxIdentity();
  const { company_id } = await registerCompany(services, { organisationId, workspaceId, fields: { name, ...identity, bic: bicOf(identity.iban), country_code: 'SK', ...profile } }, metadata);
  const sapi = await issueSapiClient(services, { organisationId, companyId: company_id, participantId: identity.peppol_id }, metadata);
  positions.push(sapi.position);
  return {
    id: company_id,
    name,
    ...identity,
    sapi: { client_id: sapi.client_id, client_secret: sapi.client_secret, participant_id: sapi.participant_id },
  };
}

/**
 * Creates the demo: an organisation on Team Business with a workspace, two sandbox companies
 * that can invoice each other through the closed-loop network, an admin user, an organisation API
 * key and SAPI-SK credentials per company, plus a second organisation with one company and its
 * own key (to see that organisations cannot see each other). Waits until read models show it all.
 */
export async function createDemo(services: DemoDeps, baseUrl: string): Promise<DemoCredentials> {
  const { organisation_id } = await createOrganisation(services, 'Demo Organizácia s.r.o.', DEMO_PLAN, metadata);
  const { workspace_id } = await createWorkspace(services, organisation_id, 'Hlavný workspace', metadata);
  const admin = { email: `admin+${organisation_id.slice(0, 8)}@demo.example.sk`, password: demoPassword() };
  await addUser(services, { organisationId: organisation_id, email: admin.email, name: 'Demo Admin', role: 'admin', password: admin.password }, metadata);
  const key = await issueApiKey(services, { organisationId: organisation_id, name: 'Demo key', issuedBy: 'demo-bootstrap' }, metadata);
  // where the keys and SAPI clients landed: the demo is usable once read models show them (the
  // appends run one after another, so the greatest is also where everything else is shown)
  const positions: (Position | null)[] = [key.position];
  const companies = [
    await sandboxCompany(services, organisation_id, workspace_id, 'Demo Dodávateľ s.r.o.', {
      street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01',
      register_entry: 'zapísaná v Obchodnom registri Okresného súdu Bratislava I, oddiel Sro, vložka č. 12345/B',
      contact_name: 'Jana Nováková', contact_email: 'fakturacia@dodavatel.demo.example.sk', contact_phone: '+421 2 1234 5678',
    }, positions),
    await sandboxCompany(services, organisation_id, workspace_id, 'Demo Odberateľ a.s.', {
      street: 'Mlynská 2', city: 'Košice', postal_code: '040 01',
      register_entry: 'zapísaná v Obchodnom registri Okresného súdu Košice I, oddiel Sa, vložka č. 1234/V',
      contact_name: 'Peter Horváth', contact_email: 'uctaren@odberatel.demo.example.sk', contact_phone: '+421 55 123 4567',
    }, positions),
  ];

  const second = await createOrganisation(services, 'Druhá Organizácia s.r.o.', DEMO_PLAN, metadata);
  const secondWorkspace = await createWorkspace(services, second.organisation_id, 'Workspace', metadata);
  const secondKey = await issueApiKey(services, { organisationId: second.organisation_id, name: 'Demo key', issuedBy: 'demo-bootstrap' }, metadata);
  const secondCompany = await sandboxCompany(
    services, second.organisation_id, secondWorkspace.workspace_id, 'Iná Firma s.r.o.', {
      street: 'Štúrova 3', city: 'Žilina', postal_code: '010 01',
      register_entry: 'zapísaná v Obchodnom registri Okresného súdu Žilina, oddiel Sro, vložka č. 6789/L',
      contact_name: 'Mária Kováčová', contact_email: 'info@inafirma.demo.example.sk', contact_phone: '+421 41 765 4321',
    }, positions,
  );
  positions.push(secondKey.position);
  await services.projections.shown(positions, 30_000);

  const root = baseUrl.replace(/\/api\/v1$/, '');
  return {
    base_url: baseUrl,
    sapi_url: `${root}/sapi`,
    organisation_id,
    workspace_id,
    plan: DEMO_PLAN,
    api_key: key.api_key,
    admin,
    companies,
    second_organisation: { organisation_id: second.organisation_id, api_key: secondKey.api_key, company_id: secondCompany.id },
  };
}

export async function writeDemoCredentials(dataDir: string, credentials: DemoCredentials): Promise<string> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'demo-credentials.json');
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return file;
}

export function describeDemo(credentials: DemoCredentials, file: string): string {
  const [a, b] = credentials.companies;
  return [
    'Demo organisation created (sandbox: nothing leaves this machine).',
    `  API:        ${credentials.base_url}   (docs: ${credentials.base_url.replace(/\/api\/v1$/, '')}/docs)`,
    `  API key:    ${credentials.api_key}`,
    `  Admin:      ${credentials.admin.email} / ${credentials.admin.password}`,
    `  Company 1:  ${a?.name} ${a?.vat_id} id ${a?.id}`,
    `  Company 2:  ${b?.name} ${b?.vat_id} id ${b?.id}`,
    `  Second organisation key: ${credentials.second_organisation.api_key}`,
    `  Everything, with SAPI-SK credentials: ${file}`,
  ].join('\n');
}
